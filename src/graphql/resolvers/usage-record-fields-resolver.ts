import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { KeySummary } from '../../keys/key-store';
import type { KeyedUsageRecord } from '../../usage/usage-queries';
import type { GraphqlContext } from '../context';
import { Model } from '../types/model';
import { UsageRecord } from '../types/usage-record';
import { UsageRecordKey } from '../types/usage-record-key';
import { visibleModel } from './catalog-resolver';

/**
 * What a dashboard shows beside a usage record, without a statement per
 * record: the catalog model comes from memory, and the keys of a whole page
 * from one statement (the operation's key loader).
 */
@Resolver(() => UsageRecord)
export class UsageRecordFieldsResolver {
  @FieldResolver(() => Model, { nullable: true, description: 'The model or route policy asked for, as `models` lists it; null once the catalog no longer serves it or the key may no longer use it.' })
  modelInfo(@Root() record: KeyedUsageRecord, @Ctx() ctx: GraphqlContext): Model | null {
    return visibleModel(ctx, record.model);
  }

  @FieldResolver(() => UsageRecordKey, { description: 'The key that made the request (a temporary credential for its own requests).' })
  async apiKey(@Root() record: KeyedUsageRecord, @Ctx() ctx: GraphqlContext): Promise<KeySummary> {
    const key = await ctx.loaders.keys.load(record.key_id);
    // Keys are revoked, never deleted, and a key reads only records it made: its own key is always there.
    if (!key) throw new Error(`the key ${record.key_id} of usage record ${record.id} is missing`);
    return key;
  }
}
