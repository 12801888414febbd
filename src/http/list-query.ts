import { pageLimit, type PageLimits } from '../db/page';
import { Errors } from '../errors/errors';

/** OpenAI's list query, as every list of the REST API reads it. */
export interface ListQuery {
  limit: number;
  order: 'asc' | 'desc';
  after: string | null;
  before: string | null;
}

/** A query parameter given at most once (`?a=1&a=2` is refused by name), or undefined when absent. */
export function queryText(query: unknown, name: string): string | undefined {
  const value = (query as Record<string, unknown>)[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw Errors.validation(name, 'must be given once.');
  return value;
}

/**
 * `limit` (within the list's page limits), `order` (`desc` unless `asc`),
 * and the `after` and `before` cursors (checked by the list that decodes
 * them), each given at most once.
 */
export function listQuery(query: unknown, limits: PageLimits): ListQuery {
  const limit = pageLimit(queryText(query, 'limit'), limits, 'limit');
  const order = queryText(query, 'order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc') throw Errors.validation('order', 'must be "asc" or "desc".');
  return { limit, order, after: queryText(query, 'after') ?? null, before: queryText(query, 'before') ?? null };
}
