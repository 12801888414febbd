import { GraphQLDateTimeISO } from 'graphql-scalars';
import { ArgsType, Field, registerEnumType } from 'type-graphql';
import { PageArgs } from './page-args';

/** The outcome of a request, by the status it was answered with (`UsageOutcome` of the usage queries). */
export enum UsageRecordStatus {
  SUCCEEDED = 'succeeded',
  FAILED = 'failed',
}
registerEnumType(UsageRecordStatus, { name: 'UsageRecordStatus', description: 'SUCCEEDED: answered with a status below 400; FAILED: 400 or above.' });

@ArgsType()
export class UsageRecordsArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Only records of this model or route name.' })
  model?: string | null;

  @Field(() => String, { nullable: true, description: 'Only records of this endpoint path, exactly: /v1/chat/completions, /v1/embeddings, ...' })
  endpoint?: string | null;

  @Field(() => UsageRecordStatus, { nullable: true, description: 'Only requests that succeeded, or only those that failed.' })
  status?: UsageRecordStatus | null;

  @Field(() => GraphQLDateTimeISO, { nullable: true, description: 'Only records created at or after this time.' })
  since?: Date | null;

  @Field(() => GraphQLDateTimeISO, { nullable: true, description: 'Only records created before this time.' })
  until?: Date | null;
}
