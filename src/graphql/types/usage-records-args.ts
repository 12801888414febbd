import { GraphQLDateTimeISO } from 'graphql-scalars';
import { ArgsType, Field } from 'type-graphql';
import { PageArgs } from './page-args';

@ArgsType()
export class UsageRecordsArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Only records of this model or route name.' })
  model?: string | null;

  @Field(() => GraphQLDateTimeISO, { nullable: true, description: 'Only records created at or after this time.' })
  since?: Date | null;

  @Field(() => GraphQLDateTimeISO, { nullable: true, description: 'Only records created before this time.' })
  until?: Date | null;
}
