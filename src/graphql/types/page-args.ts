import { ArgsType, Field, Int } from 'type-graphql';
import { badUserInput } from '../errors';

export const MAX_PAGE_SIZE = 100;

/** Cursor pagination, newest first, shared by every list. */
@ArgsType()
export class PageArgs {
  @Field(() => Int, { nullable: true, defaultValue: 20, description: `Items per page, 1 to ${MAX_PAGE_SIZE}.` })
  first!: number | null;

  @Field(() => String, { nullable: true, description: 'The endCursor of the previous page.' })
  after?: string | null;
}

/** The page size asked for, or a BAD_USER_INPUT error naming `first`. */
export function pageSize(first: number | null): number {
  if (first === null || first < 1 || first > MAX_PAGE_SIZE) throw badUserInput('first', `must be between 1 and ${MAX_PAGE_SIZE}.`);
  return first;
}
