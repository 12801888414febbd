import type { Prisma } from '../generated/prisma/client';
import { lineItemsSchema, type LineItem } from './line-items';

/**
 * Ends the hold of a task's usage record, in the transaction that moved the
 * task to its final state, so it happens exactly once: `billing_state` must
 * still be `held`.
 *
 * Settling charges the share actually delivered (never more than held),
 * line item by line item; refunding charges nothing and keeps the held
 * amount on record for audit. The ledger hold of an account under spend
 * control ends in the same transaction, and the spend totals' roll-ups
 * follow the record's new charge there too (their trigger on the record).
 */
export async function settleHeldCharge(tx: Prisma.TransactionClient, requestId: string, requested: number, delivered: number): Promise<boolean> {
  const record = await lockHeldRecord(tx, requestId);
  if (!record || record.heldMicrousd === null) return false;
  const { lineItems, amountMicrousd } = settledLineItems(lineItemsSchema.parse(record.lineItems), requested, delivered);
  if (record.holdId !== null) await endLedgerHold(tx, record.holdId, requestId, amountMicrousd, null);
  await tx.usageRecord.update({ where: { id: requestId }, data: { billingState: 'settled', amountMicrousd, lineItems, settledAt: new Date() } });
  return true;
}

export async function refundHeldCharge(tx: Prisma.TransactionClient, requestId: string): Promise<boolean> {
  const record = await lockHeldRecord(tx, requestId);
  if (!record) return false;
  const lineItems = refundedLineItems(lineItemsSchema.parse(record.lineItems));
  if (record.holdId !== null) await endLedgerHold(tx, record.holdId, requestId, null, 'task failed: refunded');
  await tx.usageRecord.update({ where: { id: requestId }, data: { billingState: 'refunded', amountMicrousd: 0n, lineItems, settledAt: new Date() } });
  return true;
}

/**
 * The task's record, locked until the transaction ends, if it is still
 * `held` (a concurrent settlement is waited for, then seen). Locked first,
 * then the ledger's wallet, then the roll-ups (which the record's update
 * changes): the order the record writer's statement takes them in, so a
 * settlement and a batch of records never wait on each other in a circle.
 */
async function lockHeldRecord(tx: Prisma.TransactionClient, requestId: string) {
  const locked = await tx.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM "usage_records" WHERE "id" = $1 AND "billing_state" = 'held' FOR UPDATE`, requestId);
  return locked.length ? tx.usageRecord.findUnique({ where: { id: requestId } }) : null;
}

/**
 * Ends the task's ledger hold (accounts under spend control) in the same
 * transaction as its record: settled at what was charged, or released.
 */
async function endLedgerHold(tx: Prisma.TransactionClient, holdId: bigint, requestId: string, charged: bigint | null, note: string | null): Promise<void> {
  const item = { hold_id: holdId.toString(), request_id: requestId, charged: charged === null ? null : charged.toString(), note };
  await tx.$queryRawUnsafe('SELECT gateway_end_holds($1::jsonb) AS "ended"', JSON.stringify([item]));
}

/**
 * The held line items scaled to what was delivered: each item's quantity and
 * amount become `delivered / requested` of what was held (delivered clamped
 * to 0..requested), rounded half up in integers; the total is their sum.
 */
export function settledLineItems(held: LineItem[], requested: number, delivered: number): { lineItems: LineItem[]; amountMicrousd: bigint } {
  const part = Math.min(Math.max(delivered, 0), requested);
  let total = 0n;
  const lineItems = held.map((item) => {
    const amount = requested > 0 ? proportion(BigInt(item.amount_microusd), part, requested) : 0n;
    total += amount;
    const quantity = requested > 0 ? Number(proportion(BigInt(Math.round(item.quantity)), part, requested)) : 0;
    return { ...item, quantity, amount_microusd: Number(amount) };
  });
  return { lineItems, amountMicrousd: total };
}

/** Nothing charged; quantities and unit prices stay for audit. */
export function refundedLineItems(held: LineItem[]): LineItem[] {
  return held.map((item) => ({ ...item, amount_microusd: 0 }));
}

/** whole × part / of, rounded half up, in integers. */
function proportion(whole: bigint, part: number, of: number): bigint {
  return (whole * BigInt(part) * 2n + BigInt(of)) / (2n * BigInt(of));
}
