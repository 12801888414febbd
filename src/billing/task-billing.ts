import type { Prisma } from '../generated/prisma/client';
import type { LineItem } from './line-items';

/**
 * Ends the hold of a task's usage record, in the transaction that moved the
 * task to its final state, so it happens exactly once: `billing_state` must
 * still be `held`.
 *
 * Settling charges the seconds actually delivered (never more than held);
 * refunding charges nothing and keeps the held amount on record for audit.
 */
export async function settleHeldCharge(tx: Prisma.TransactionClient, requestId: string, requested: number, delivered: number): Promise<boolean> {
  const record = await tx.usageRecord.findUnique({ where: { id: requestId } });
  if (!record || record.billingState !== 'held' || record.heldMicrousd === null) return false;
  const quantity = Math.min(Math.max(delivered, 0), requested);
  const amount = requested > 0 ? proportion(record.heldMicrousd, quantity, requested) : 0n;
  const lineItems = (record.lineItems as unknown as LineItem[]).map((item) => ({ ...item, quantity, amount_microusd: Number(amount) }));
  const { count } = await tx.usageRecord.updateMany({
    where: { id: requestId, billingState: 'held' },
    data: { billingState: 'settled', amountMicrousd: amount, lineItems: lineItems as never, settledAt: new Date() },
  });
  return count === 1;
}

export async function refundHeldCharge(tx: Prisma.TransactionClient, requestId: string): Promise<boolean> {
  const record = await tx.usageRecord.findUnique({ where: { id: requestId } });
  if (!record || record.billingState !== 'held') return false;
  const lineItems = (record.lineItems as unknown as LineItem[]).map((item) => ({ ...item, amount_microusd: 0 }));
  const { count } = await tx.usageRecord.updateMany({
    where: { id: requestId, billingState: 'held' },
    data: { billingState: 'refunded', amountMicrousd: 0n, lineItems: lineItems as never, settledAt: new Date() },
  });
  return count === 1;
}

/** held × part / whole, rounded half up, in integers. */
function proportion(held: bigint, part: number, whole: number): bigint {
  return (held * BigInt(part) * 2n + BigInt(whole)) / (2n * BigInt(whole));
}
