import { endCursor, InvalidPageRequestError, pageLimit, type Page, type PageRequest } from '../db/page';
import { badUserInput } from './errors';
import { GRAPHQL_PAGE_LIMITS, type PageArgs } from './types/page-args';
import type { PageInfo } from './types/usage-record-connection';

/** A Relay connection: the page's items as edges with their cursors. */
export interface Connection<N> {
  edges: Array<{ node: N; cursor: string }>;
  pageInfo: PageInfo;
}

/**
 * A page of a list as a Relay connection, asked for with the list
 * arguments `first` and `after` (an empty `after` starts at the top). This is where GraphQL words a page request
 * the list refuses (a size out of bounds, a cursor it did not give out):
 * BAD_USER_INPUT naming the argument, for every list.
 */
export async function connection<T, N>(args: PageArgs, load: (request: PageRequest) => Promise<Page<T>>, node: (item: T) => N): Promise<Connection<N>> {
  let page: Page<T>;
  try {
    page = await load({ limit: pageLimit(args.first, GRAPHQL_PAGE_LIMITS, 'first'), after: args.after || null });
  } catch (err) {
    if (err instanceof InvalidPageRequestError) throw badUserInput(err.param, err.reason);
    throw err;
  }
  return {
    edges: page.items.map((item, i) => ({ node: node(item), cursor: page.cursors[i]! })),
    pageInfo: { endCursor: endCursor(page), hasNextPage: page.hasMore },
  };
}
