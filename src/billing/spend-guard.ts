import type { Database } from '../db/database';
import { GatewayError } from '../errors/gateway-error';
import type { Logger } from '../observability/logger';
import type { HoldPlacer } from './hold-placer';
import type { PricingSource } from './pricing';
import type { Principal } from '../keys/principal';
import { holdMicrousd, type PricedRoute, type SpendEstimate } from './spend-estimate';
import type { SpendHold } from './spend-hold';
import type { SpendLeases } from './spend-leases';

interface RefusingBudget {
  scope: string;
  scope_id: string;
  period: string;
  limit_microusd: string;
  used_microusd: string | null;
}

/**
 * The check before every paid call of an account under spend control: a
 * hold for the call's worst case, placed by one group-committed statement
 * that checks the wallet and every budget over the caller and takes the
 * amount from them, or, for a caller hot enough to hold a lease of the
 * account on this instance, a part of that lease taken in memory
 * (spend-leases.ts). A refused call never reaches the upstream; a call whose
 * hold cannot be placed (the database is out) is refused too, since nothing
 * then bounds what it spends. The hold comes back as a value for the call to
 * keep (call-spend.ts); the guard keeps nothing.
 */
export class SpendGuard {
  constructor(
    private readonly placer: HoldPlacer,
    private readonly pricing: PricingSource,
    private readonly db: Pick<Database, 'query'>,
    private readonly logger: Logger,
    /** This instance's leases; without them every hold is its own ledger row. */
    private readonly leases: SpendLeases | null = null,
  ) {}

  /**
   * Places the hold for `call` (its worst case on the dearest of its routes)
   * and answers with it; null when the account turns out not to be under
   * spend control. Throws the refusal, which only an exact hold gives: a
   * call no lease can hold places its own. A hold that outlives its call
   * (a video task's) is never taken from a lease.
   */
  async hold(call: { principal: Principal; requestId: string }, routes: PricedRoute[], estimate: SpendEstimate, options: { outlivesCall?: boolean } = {}): Promise<SpendHold | null> {
    if (!call.principal.spendControlled) return null;
    const amount = holdMicrousd(this.pricing.currentPricing().prices, routes, estimate);
    if (this.leases && !options.outlivesCall) {
      const leased = await this.leases.hold(call.principal, amount);
      if (leased) return leased;
    }
    let outcome;
    try {
      outcome = await this.placer.place({ principal: call.principal, requestId: call.requestId, amountMicrousd: amount });
    } catch (err) {
      this.logger.error('spend hold could not be placed; the call is refused', { request_id: call.requestId, account_id: call.principal.accountId, err });
      throw new GatewayError('spend_control_unavailable', 'The hold for this call could not be placed (the database did not answer); nothing was sent upstream. Retry in a moment.');
    }
    if (outcome.kind === 'held') {
      if (outcome.softExceeded.length) {
        this.logger.warn('soft budget passed', { request_id: call.requestId, account_id: call.principal.accountId, budget_ids: outcome.softExceeded });
      }
      return { id: outcome.holdId, amountMicrousd: amount };
    }
    if (outcome.kind === 'uncontrolled') return null;
    if (outcome.refusal === 'insufficient_balance') {
      throw new GatewayError('insufficient_balance', `The account's wallet cannot cover this call's worst case of ${amount} micro-USD; nothing was sent upstream. Top up the wallet or lower max_tokens.`, {
        details: { hold_microusd: Number(amount) },
      });
    }
    throw await this.budgetRefusal(outcome.budgetId!, amount);
  }

  private async budgetRefusal(budgetId: string, amount: bigint): Promise<GatewayError> {
    const { rows } = await this.db
      .query<RefusingBudget>(
        'SELECT b."scope", b."scope_id", b."period", b."limit_microusd"::text, (u."spent_microusd" + u."held_microusd")::text AS "used_microusd" ' +
          'FROM "budgets" b LEFT JOIN "budget_usage" u ON u."budget_id" = b."id" AND u."period_start" = gateway_period_start(b."period", now()) WHERE b."id" = $1',
        [budgetId],
      )
      .catch(() => ({ rows: [] as RefusingBudget[] }));
    const b = rows[0];
    const limit = b ? BigInt(b.limit_microusd) : null;
    const used = b?.used_microusd ? BigInt(b.used_microusd) : 0n;
    const left = limit === null ? null : limit > used ? limit - used : 0n;
    const what = b ? `the ${b.period} budget of ${b.scope} ${b.scope_id}` : `budget ${budgetId}`;
    return new GatewayError('budget_exceeded', `This call could cost up to ${amount} micro-USD, more than is left of ${what}${left === null ? '' : ` (${left} micro-USD)`}; nothing was sent upstream. Lower max_tokens, or ask the account's administrator to raise the budget.`, {
      details: {
        budget_id: budgetId,
        ...(b ? { scope: b.scope, scope_id: b.scope_id, period: b.period, limit_microusd: Number(limit) } : {}),
        remaining_microusd: left === null ? null : Number(left),
        hold_microusd: Number(amount),
      },
    });
  }
}
