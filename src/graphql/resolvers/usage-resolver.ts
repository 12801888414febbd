import { Arg, Args, Ctx, ID, Query, Resolver } from 'type-graphql';
import { InvalidCursorError, type KeyedUsageRecord } from '../../usage/usage-queries';
import type { GraphqlContext } from '../context';
import { badUserInput } from '../errors';
import { UsageRecord } from '../types/usage-record';
import { UsageRecordConnection } from '../types/usage-record-connection';
import { pageSize } from '../types/page-args';
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
  async usageRecords(@Args(() => UsageRecordsArgs) args: UsageRecordsArgs, @Ctx() ctx: GraphqlContext): Promise<UsageRecordConnection> {
    const { first, after, model, endpoint, status, since, until } = args;
    try {
      const page = await ctx.services.usage.page(ctx.principal, pageSize(first), after ?? null, {
        model: model ?? undefined,
        endpoint: endpoint ?? undefined,
        outcome: status ?? undefined,
        since: since ?? undefined,
        until: until ?? undefined,
      });
      return {
        edges: page.records.map((node, i) => ({ node, cursor: page.cursors[i] })),
        pageInfo: { endCursor: page.endCursor, hasNextPage: page.hasNextPage },
      };
    } catch (err) {
      if (err instanceof InvalidCursorError) throw badUserInput('after', 'is not a cursor this API returned.');
      throw err;
    }
  }
}
