import { InvalidPageRequestError } from '../db/page';

/** What `GET /v1/responses/{id}/input_items` asks for: at most `limit` items in `order`, after or before an item's id. */
export interface InputItemsQuery {
  limit: number;
  order: 'asc' | 'desc';
  after: string | null;
  before: string | null;
}

export interface InputItemsPage<T> {
  data: T[];
  hasMore: boolean;
}

/**
 * One page of a response's input items, OpenAI's cursor list: the items in
 * `order` (`desc`: the last input item first), those after `after` and
 * before `before` (item ids of this list), the first `limit` of them, or the
 * last `limit` when only `before` is given (the page before it). The items
 * of one response are few and read whole, so the page is cut in memory.
 */
export function inputItemsPage<T extends { id: string }>(items: readonly T[], query: InputItemsQuery): InputItemsPage<T> {
  const ordered = query.order === 'asc' ? items : [...items].reverse();
  const start = query.after === null ? 0 : positionOf(ordered, query.after, 'after') + 1;
  const end = query.before === null ? ordered.length : positionOf(ordered, query.before, 'before');
  if (end <= start) return { data: [], hasMore: false };
  if (query.before !== null && query.after === null) {
    const from = Math.max(start, end - query.limit);
    return { data: ordered.slice(from, end), hasMore: from > start };
  }
  return { data: ordered.slice(start, Math.min(end, start + query.limit)), hasMore: start + query.limit < end };
}

function positionOf(items: readonly { id: string }[], id: string, param: string): number {
  const at = items.findIndex((item) => item.id === id);
  if (at === -1) throw new InvalidPageRequestError(param, `names no input item of this response ("${id.slice(0, 128)}").`);
  return at;
}
