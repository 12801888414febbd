import { GatewayError } from '../errors/gateway-error';

/**
 * The page contract of every list the gateway serves (files, video tasks,
 * usage records, the ledger): a page holds its items in the list's order,
 * one cursor per item, and whether more follow the last. A cursor is opaque
 * to clients: each list reads back only the cursors it gave out, in its own
 * dialect (`Cursor`), and refuses anything else, as it refuses a page size
 * outside its bounds, with `InvalidPageRequestError`. Doors choose their wire
 * shape (OpenAI's `data`/`has_more`, a Relay connection) from the same page.
 */
export interface Page<T> {
  items: T[];
  /** `cursors[i]` continues the list after `items[i]`. */
  cursors: string[];
  hasMore: boolean;
}

/** What a caller asks of a list: at most `limit` items, after the one `after` points at (from the start when null). */
export interface PageRequest {
  limit: number;
  after: string | null;
}

/** How many items a page of a list may hold: `default` when none is asked for, never more than `max`. */
export interface PageLimits {
  default: number;
  max: number;
}

/**
 * A page request a list refuses (a size out of bounds, a cursor it did not
 * give out), naming the request parameter. It is a gateway error, so REST
 * answers it as every `invalid_parameter`; GraphQL words it once for its
 * arguments (see graphql/connection.ts).
 */
export class InvalidPageRequestError extends GatewayError {
  constructor(
    readonly param: string,
    readonly reason: string,
  ) {
    super('invalid_parameter', `"${param}" ${reason}`, { param });
  }
}

/** A list's position as its clients see it: how it is written, and read back. */
export interface Cursor<P> {
  /** The request parameter that carries it: `after`, or `before` for a list that pages backwards. */
  readonly param: string;
  /** What a cursor of this list is, for the refusal of one that is not. */
  readonly refusal: string;
  encode(position: P): string;
  /** The position, or undefined when the text is not a cursor of this list. */
  read(text: string): P | undefined;
}

/** The page size asked for (`requested` as a number, or the text of a query parameter), or the list's default when none was. */
export function pageLimit(requested: number | string | null | undefined, limits: PageLimits, param: string): number {
  if (requested === undefined) return limits.default;
  const size = typeof requested === 'string' ? Number(requested) : requested;
  if (size === null || !Number.isInteger(size) || size < 1 || size > limits.max) {
    throw new InvalidPageRequestError(param, `must be a whole number from 1 to ${limits.max}.`);
  }
  return size;
}

/** The position a cursor points at; InvalidPageRequestError naming the cursor's parameter when it is not one this list gave out. */
export function decodeCursor<P>(cursor: Cursor<P>, text: string): P {
  const position = cursor.read(text);
  if (position === undefined) throw new InvalidPageRequestError(cursor.param, cursor.refusal);
  return position;
}

/** A page from the `limit + 1` rows a list read (the extra row only says that more follow). */
export function pageOf<R, T>(rows: readonly R[], limit: number, item: (row: R) => T, cursorOf: (row: R) => string): Page<T> {
  const kept = rows.slice(0, limit);
  return { items: kept.map(item), cursors: kept.map(cursorOf), hasMore: rows.length > limit };
}

/** The cursor of the page's last item (a Relay `endCursor`); null for an empty page. */
export function endCursor(page: Page<unknown>): string | null {
  return page.cursors[page.cursors.length - 1] ?? null;
}

/** The cursor to ask for the next page with: the last item's when more follow, null at the end of the list. */
export function nextCursor(page: Page<unknown>): string | null {
  return page.hasMore ? endCursor(page) : null;
}
