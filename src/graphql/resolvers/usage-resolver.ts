import { Arg, Args, Ctx, ID, Query, Resolver } from 'type-graphql';
import type { KeyedUsageRecord } from '../../usage/usage-queries';
import { connection } from '../connection';
import type { GraphqlContext } from '../context';
import { UsageRecord } from '../types/usage-record';
import { UsageRecordConnection } from '../types/usage-record-connection';
import { UsageRecordsArgs } from '../types/usage-records-args';

/** The usage records of GET /api/usage/requests/{id}, readable only by the key that made each request. */
@Resolver()
export class UsageResolver {
  @Query(() => UsageRecord, { nullable: true, description: "A request's usage record; null when missing or made by another key." })
  usageRecord(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphqlContext): Promise<KeyedUsageRecord | null> {
    // Through the operation's loader: several usageRecord(id) fields of one document are one statement.
    return ctx.loaders.usageRecords.load(id);
  }

  @Query(() => UsageRecordConnection, { description: "The calling key's usage records, newest first." })
  usageRecords(@Args(() => UsageRecordsArgs) args: UsageRecordsArgs, @Ctx() ctx: GraphqlContext): Promise<UsageRecordConnection> {
    const { model, endpoint, status, since, until } = args;
    const filter = { model: model ?? undefined, endpoint: endpoint ?? undefined, outcome: status ?? undefined, since: since ?? undefined, until: until ?? undefined };
    return connection(args, (request) => ctx.services.usage.page(ctx.principal, request, filter), (record) => record);
  }
}
