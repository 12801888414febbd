import { Field, ObjectType } from 'type-graphql';
import type { KeyedUsageRecord } from '../../usage/usage-queries';
import { UsageRecord } from './usage-record';

@ObjectType()
export class UsageRecordEdge {
  @Field(() => UsageRecord)
  node!: KeyedUsageRecord;

  @Field(() => String, { description: 'Pass as `after` to continue after this record.' })
  cursor!: string;
}

@ObjectType()
export class PageInfo {
  @Field(() => String, { nullable: true, description: 'The cursor of the last record of the page; null for an empty page.' })
  endCursor!: string | null;

  @Field()
  hasNextPage!: boolean;
}

@ObjectType({ description: 'A page of usage records, newest first.' })
export class UsageRecordConnection {
  @Field(() => [UsageRecordEdge])
  edges!: UsageRecordEdge[];

  @Field(() => PageInfo)
  pageInfo!: PageInfo;
}
