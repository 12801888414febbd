import { Args, Ctx, Query, Resolver } from 'type-graphql';
import { KEY_SPEND_GROUPS } from '../../usage/spend-groups';
import { parseGroupBy } from '../../usage/spend-totals-params';
import { resolveSpendRange } from '../../usage/spend-range';
import type { SpendTotalsView } from '../../usage/spend-totals';
import type { GraphqlContext } from '../context';
import { SpendTotals } from '../types/spend-totals';
import { SpendTotalsArgs } from '../types/spend-totals-args';

/** The spend totals of GET /api/usage/totals, for the calling key only. */
@Resolver()
export class SpendTotalsResolver {
  @Query(() => SpendTotals, { description: "The calling key's spend, grouped; the same figures as GET /api/usage/totals." })
  spendTotals(@Args(() => SpendTotalsArgs) args: SpendTotalsArgs, @Ctx() ctx: GraphqlContext): Promise<SpendTotalsView> {
    // The same checks as REST (at most 3, no repeats), so both answer alike.
    const groupBy = parseGroupBy(args.groupBy.join(','), KEY_SPEND_GROUPS);
    const range = resolveSpendRange({ from: args.from ?? undefined, to: args.to ?? undefined });
    return ctx.services.spend.totals({ keyId: ctx.principal.keyId }, groupBy, range);
  }
}
