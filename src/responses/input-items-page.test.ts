import { InvalidPageRequestError } from '../db/page';
import { inputItemsPage } from './input-items-page';

const items = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id }));
const ids = (page: { data: { id: string }[] }) => page.data.map((item) => item.id);
const query = (q: Partial<Parameters<typeof inputItemsPage>[1]>) => ({ limit: 2, order: 'asc' as const, after: null, before: null, ...q });

describe('a page of input items', () => {
  it('takes the first items in either order, and says whether more follow', () => {
    expect(inputItemsPage(items, query({}))).toEqual({ data: [{ id: 'a' }, { id: 'b' }], hasMore: true });
    expect(ids(inputItemsPage(items, query({ order: 'desc' })))).toEqual(['e', 'd']);
    expect(inputItemsPage(items, query({ limit: 5 })).hasMore).toBe(false);
  });

  it('continues after an item, and gives the page just before one', () => {
    expect(inputItemsPage(items, query({ after: 'b' }))).toEqual({ data: [{ id: 'c' }, { id: 'd' }], hasMore: true });
    expect(inputItemsPage(items, query({ after: 'd' }))).toEqual({ data: [{ id: 'e' }], hasMore: false });
    expect(inputItemsPage(items, query({ before: 'e' }))).toEqual({ data: [{ id: 'c' }, { id: 'd' }], hasMore: true });
    expect(inputItemsPage(items, query({ before: 'b' }))).toEqual({ data: [{ id: 'a' }], hasMore: false });
    expect(ids(inputItemsPage(items, query({ order: 'desc', after: 'd', before: 'a', limit: 10 })))).toEqual(['c', 'b']);
    expect(inputItemsPage(items, query({ after: 'd', before: 'b' }))).toEqual({ data: [], hasMore: false });
  });

  it('refuses a cursor that names no item, naming the parameter', () => {
    expect(() => inputItemsPage(items, query({ after: 'z' }))).toThrow(InvalidPageRequestError);
    expect(() => inputItemsPage(items, query({ before: 'z' }))).toThrow(expect.objectContaining({ param: 'before' }));
  });
});
