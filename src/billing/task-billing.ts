import type { Prisma } from '../generated/prisma/client';
import { lineItemsSchema, type LineItem } from './line-items';
import { CHARGE_CHANGE_SQL } from './usage-rollups';

/**
 * Ends the hold of a task's usage record, in the transaction that moved the
 * task to its final state, so it happens exactly once: `billing_state` must
 * still be `held`.
 *
 * Settling charges the share actually delivered (never more than held),
 * line item by line item; refunding charges nothing and keeps the held
 * amount on record for audit. The ledger hold of an account under spend
 * control ends in the same transaction, and so do the roll-ups' sums.
 */
export async function settleHeldCharge(tx: Prisma.TransactionClient, requestId: string, requested: number, delivered: number): Promise<boolean> {
  const record = await tx.usageRecord.findUnique({ where: { id: requestId } });
  if (!record || record.billingState !== 'held' || record.heldMicrousd === null) return false;
  const { lineItems, amountMicrousd } = settledLineItems(lineItemsSchema.parse(record.lineItems), requested, delivered);
  const { count } = await tx.usageRecord.updateMany({
    where: { id: requestId, billingState: 'held' },
    data: { billingState: 'settled', amountMicrousd, lineItems, settledAt: new Date() },
  });
  if (count !== 1) return false;
  if (record.holdId !== null) await endLedgerHold(tx, record.holdId, requestId, amountMicrousd, null);
  await changeRolledUpCharge(tx, requestId, amountMicrousd - record.amountMicrousd);
  return true;
}

export async function refundHeldCharge(tx: Prisma.TransactionClient, requestId: string): Promise<boolean> {
  const record = await tx.usageRecord.findUnique({ where: { id: requestId } });
  if (!record || record.billingState !== 'held') return false;
  const lineItems = refundedLineItems(lineItemsSchema.parse(record.lineItems));
  const { count } = await tx.usageRecord.updateMany({
    where: { id: requestId, billingState: 'held' },
    data: { billingState: 'refunded', amountMicrousd: 0n, lineItems, settledAt: new Date() },
  });
  if (count !== 1) return false;
  if (record.holdId !== null) await endLedgerHold(tx, record.holdId, requestId, null, 'task failed: refunded');
  await changeRolledUpCharge(tx, requestId, -record.amountMicrousd);
  return true;
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
 * The spend totals' roll-ups follow the record's new charge, in the same
 * transaction. The difference is taken from the record as read before the
 * update: a held record's charge changes only when it leaves `held`, which
 * the update's own condition allows once.
 */
async function changeRolledUpCharge(tx: Prisma.TransactionClient, requestId: string, difference: bigint): Promise<void> {
  if (difference !== 0n) await tx.$executeRawUnsafe(CHARGE_CHANGE_SQL, requestId, difference.toString());
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
