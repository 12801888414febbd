import { GraphQLDateTimeISO } from 'graphql-scalars';
import { ArgsType, Field, Int } from 'type-graphql';

export const MAX_USAGE_PAGE_SIZE = 100;

@ArgsType()
export class UsageRecordsArgs {
  @Field(() => Int, { nullable: true, defaultValue: 20, description: `Records per page, 1 to ${MAX_USAGE_PAGE_SIZE}.` })
  first!: number | null;

  @Field(() => String, { nullable: true, description: 'The endCursor of the previous page.' })
  after?: string | null;

  @Field(() => String, { nullable: true, description: 'Only records of this model or route name.' })
  model?: string | null;

  @Field(() => GraphQLDateTimeISO, { nullable: true, description: 'Only records created at or after this time.' })
  since?: Date | null;

  @Field(() => GraphQLDateTimeISO, { nullable: true, description: 'Only records created before this time.' })
  until?: Date | null;
}
