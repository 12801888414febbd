import { GatewayError } from '../errors/gateway-error';
import { decodeCursor, endCursor, InvalidPageRequestError, nextCursor, pageLimit, pageOf, type Cursor } from './page';
import { timeIdCursor } from './time-id-cursor';

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    return err;
  }
  throw new Error('expected a refusal');
};

describe('page sizes', () => {
  const limits = { default: 100, max: 500 };

  it('answers the default when none is asked for, and the size asked for within 1..max, as a number or a query text', () => {
    expect(pageLimit(undefined, limits, 'limit')).toBe(100);
    expect(pageLimit(1, limits, 'limit')).toBe(1);
    expect(pageLimit(500, limits, 'limit')).toBe(500);
    expect(pageLimit('37', limits, 'limit')).toBe(37);
  });

  it.each([0, 501, -1, 2.5, null, '', 'ten', '1.5', '501'])('refuses %p as an invalid_parameter naming the parameter', (requested) => {
    const err = refusal(() => pageLimit(requested, limits, 'first'));
    expect(err).toBeInstanceOf(InvalidPageRequestError);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ code: 'invalid_parameter', status: 400, param: 'first', message: '"first" must be a whole number from 1 to 500.' });
  });
});

describe('pages', () => {
  const rows = [{ n: 5 }, { n: 4 }, { n: 3 }];
  const page = (limit: number) => pageOf(rows, limit, (row) => `item ${row.n}`, (row) => `c${row.n}`);

  it('keeps `limit` of the `limit + 1` rows read, one cursor each, and says whether more follow', () => {
    expect(page(2)).toEqual({ items: ['item 5', 'item 4'], cursors: ['c5', 'c4'], hasMore: true });
    expect(page(3)).toEqual({ items: ['item 5', 'item 4', 'item 3'], cursors: ['c5', 'c4', 'c3'], hasMore: false });
  });

  it('continues after the last item only while more follow; an empty page has no end', () => {
    expect([endCursor(page(2)), nextCursor(page(2))]).toEqual(['c4', 'c4']);
    expect([endCursor(page(3)), nextCursor(page(3))]).toEqual(['c3', null]);
    const empty = pageOf([], 10, String, String);
    expect([endCursor(empty), nextCursor(empty), empty.hasMore]).toEqual([null, null, false]);
  });
});

describe('cursors', () => {
  const refused = (cursor: Cursor<unknown>, text: string) => refusal(() => decodeCursor(cursor, text)) as InvalidPageRequestError;

  it('reads back the opaque time-and-id cursor it writes, and refuses anything else', () => {
    const position = { createdAt: new Date('2026-03-01T10:00:00.123Z'), id: 'rec_1' };
    const cursor = timeIdCursor.encode(position);
    expect(cursor).not.toContain('rec_1');
    expect(decodeCursor(timeIdCursor, cursor)).toEqual(position);
    for (const text of ['', 'not-a-cursor', Buffer.from('yesterday|rec_1').toString('base64url'), Buffer.from('2026-03-01T10:00:00Z|').toString('base64url')]) {
      expect(refused(timeIdCursor, text)).toMatchObject({ code: 'invalid_parameter', param: 'after', reason: 'is not a cursor this API returned.' });
    }
  });
});
