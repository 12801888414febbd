import type { Principal } from '../keys/principal';
import type { PricedRoute, SpendEstimate } from './spend-estimate';
import type { SpendGuard } from './spend-guard';
import type { SpendHold } from './spend-hold';

/**
 * One call's spend control: it places the call's hold (once, and only for
 * an account under spend control) and keeps it, for the call's usage record
 * to end. The guard answers with the hold as a value and keeps nothing.
 */
export class CallSpend {
  private placed: SpendHold | null = null;

  constructor(
    /** Without it (spend control is off) nothing is held. */
    private readonly guard: SpendGuard | null,
    private readonly principal: Principal,
    private readonly requestId: string,
  ) {}

  /** The hold placed for this call, if any. */
  get hold(): SpendHold | null {
    return this.placed;
  }

  /**
   * Places the hold before the upstream call, for the dearest of `routes`;
   * throws the refusal (`budget_exceeded`, `insufficient_balance`,
   * `spend_control_unavailable`). A call that holds already is not held again.
   * `outlivesCall`: the hold stays open after the call's record is written
   * (a video task's, until the task ends), so it is its own ledger row.
   */
  async place(routes: PricedRoute[], estimate: SpendEstimate, options: { outlivesCall?: boolean } = {}): Promise<SpendHold | null> {
    if (!this.guard || !this.principal.spendControlled || this.placed) return this.placed;
    this.placed = await this.guard.hold({ principal: this.principal, requestId: this.requestId }, routes, estimate, options);
    return this.placed;
  }
}
