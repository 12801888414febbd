/**
 * The ledger hold placed for one call's worst case before its upstream call
 * (accounts under spend control): a value, kept by the call that placed it
 * (call-spend.ts). The call's usage record carries its id, and the
 * record's write ends it in the same statement: the charge settles against
 * it and the rest is released (usage-record-insert.ts). A task's record
 * keeps it until the task ends, settled or refunded then (task-billing.ts).
 */
export interface SpendHold {
  readonly id: bigint;
  /** What was taken from the wallet and every budget over the caller: the call's worst case on its dearest route. */
  readonly amountMicrousd: bigint;
}
