import { GraphQLError } from 'graphql';
import { InvalidPageRequestError, pageOf, type Page, type PageRequest } from '../db/page';
import { connection } from './connection';

describe('a page as a Relay connection', () => {
  const load = jest.fn(async (request: { limit: number; after: string | null }) => pageOf([1, 2, 3].slice(0, request.limit + 1), request.limit, (n) => n, (n) => `c${n}`));

  it('asks the list for `first` items after `after` and shapes its page as edges and pageInfo', async () => {
    expect(await connection({ first: 2, after: 'c0' }, load, (n) => `node ${n}`)).toEqual({
      edges: [{ node: 'node 1', cursor: 'c1' }, { node: 'node 2', cursor: 'c2' }],
      pageInfo: { endCursor: 'c2', hasNextPage: true },
    });
    expect(load).toHaveBeenLastCalledWith({ limit: 2, after: 'c0' });
    await connection({ first: 20, after: '' }, load, String);
    expect(load).toHaveBeenLastCalledWith({ limit: 20, after: null });
  });

  it('words a refused page request as BAD_USER_INPUT naming the argument, and lets any other failure through', async () => {
    const refused = (args: { first: number | null; after?: string }, list: (request: PageRequest) => Promise<Page<number>> = load) => connection(args, list, String).catch((err: unknown) => err);
    for (const first of [0, 101, null]) {
      expect(await refused({ first })).toMatchObject({ message: '"first" must be a whole number from 1 to 100.', extensions: { code: 'BAD_USER_INPUT', param: 'first' } });
    }
    const badCursor = await refused({ first: 5 }, async () => {
      throw new InvalidPageRequestError('after', 'is not a cursor this API returned.');
    });
    expect(badCursor).toBeInstanceOf(GraphQLError);
    expect(badCursor).toMatchObject({ message: '"after" is not a cursor this API returned.', extensions: { code: 'BAD_USER_INPUT', param: 'after' } });
    const broken = new Error('database gone');
    expect(await refused({ first: 5 }, async () => {
      throw broken;
    })).toBe(broken);
  });
});
