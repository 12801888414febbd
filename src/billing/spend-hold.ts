/**
 * The hold placed for one call's worst case before its upstream call
 * (accounts under spend control): a value, kept by the call that placed it
 * (call-spend.ts). Either its own ledger row, or a part of this instance's
 * lease of the account (spend-leases.ts), when `lease` is set and `id` is
 * the lease's. The call's usage record carries the id, and the record's
 * write ends it in the same statement: the charge settles against it and
 * the rest is released, or, in a lease, the charge is booked against the
 * lease (usage-record-insert.ts). A task's record keeps its own hold until
 * the task ends, settled or refunded then (task-billing.ts).
 */
export interface SpendHold {
  readonly id: bigint;
  /** What was taken from the wallet and every budget over the caller: the call's worst case on its dearest route. */
  readonly amountMicrousd: bigint;
  /** Set for a hold inside a lease: told what the call was charged when its record is handed to the writer. */
  readonly lease?: LeaseShare;
}

/** A call's part of a lease, ended once with what the call was charged and the record's write (its commit or spool). */
export interface LeaseShare {
  ended(chargedMicrousd: bigint, written: Promise<void>): void;
}
