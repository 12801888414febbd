import { ArgsType, Field, Int } from 'type-graphql';
import type { PageLimits } from '../../db/page';

export const MAX_PAGE_SIZE = 100;

/** Every GraphQL list: 20 items unless `first` asks for 1 to 100. */
export const GRAPHQL_PAGE_LIMITS: PageLimits = { default: 20, max: MAX_PAGE_SIZE };

/** Cursor pagination, newest first, shared by every list (read by `connection()`). */
@ArgsType()
export class PageArgs {
  @Field(() => Int, { nullable: true, defaultValue: GRAPHQL_PAGE_LIMITS.default, description: `Items per page, 1 to ${MAX_PAGE_SIZE}.` })
  first!: number | null;

  @Field(() => String, { nullable: true, description: 'The endCursor of the previous page.' })
  after?: string | null;
}
