import { timeWindowOfIds } from '../db/time-ordered-id';
import type { Prisma, UsageRecord } from '../generated/prisma/client';
import { lineItemsSchema, type LineItem } from './line-items';
import { figuresInShape, joinUsageRecordParts } from './usage-record-figures';

/**
 * Ends the hold of a task's usage record, in the transaction that moved the
 * task to its final state, so it happens exactly once: `billing_state` must
 * still be `held`.
 *
 * Settling charges the share actually delivered (never more than held),
 * line item by line item; refunding charges nothing and keeps the held
 * amount on record for audit. The ledger hold of an account under spend
 * control ends in the same transaction.
 */
export async function settleHeldCharge(tx: Prisma.TransactionClient, requestId: string, requested: number, delivered: number): Promise<boolean> {
  const held = await lockHeldRecord(tx, requestId);
  if (!held || held.record.heldMicrousd === null) return false;
  const { lineItems, amountMicrousd } = settledLineItems(held.lineItems, requested, delivered);
  if (held.record.holdId !== null) await endLedgerHold(tx, held.record.holdId, requestId, amountMicrousd, null);
  await tx.usageRecord.updateMany({
    where: { id: requestId, createdAt: held.record.createdAt },
    data: { billingState: 'settled', amountMicrousd, figures: held.withLineItems(lineItems), settledAt: new Date() },
  });
  return true;
}

export async function refundHeldCharge(tx: Prisma.TransactionClient, requestId: string): Promise<boolean> {
  const held = await lockHeldRecord(tx, requestId);
  if (!held) return false;
  if (held.record.holdId !== null) await endLedgerHold(tx, held.record.holdId, requestId, null, 'task failed: refunded');
  await tx.usageRecord.updateMany({
    where: { id: requestId, createdAt: held.record.createdAt },
    data: { billingState: 'refunded', amountMicrousd: 0n, figures: held.withLineItems(refundedLineItems(held.lineItems)), settledAt: new Date() },
  });
  return true;
}

interface HeldRecord {
  record: UsageRecord;
  lineItems: LineItem[];
  /** The record's figures with its line items changed (their amounts and quantities only: the record keeps its shape). */
  withLineItems(lineItems: LineItem[]): Prisma.InputJsonArray;
}

/**
 * A task's record while its charge is still held (found in its time's
 * partition), with its line items, locked until the transaction ends (a
 * concurrent settlement is waited for, then seen). Locked first, then the
 * ledger's wallet, then the roll-ups (which the record's update changes):
 * the order the record writer's statement takes them in, so a settlement
 * and a batch of records never wait on each other in a circle.
 */
async function lockHeldRecord(tx: Prisma.TransactionClient, requestId: string): Promise<HeldRecord | null> {
  const window = timeWindowOfIds([requestId]);
  const locked = window
    ? await tx.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM "usage_records" WHERE "id" = $1 AND "created_at" >= $2 AND "created_at" < $3 AND "billing_state" = 'held' FOR UPDATE`, requestId, window.gte, window.lt)
    : await tx.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM "usage_records" WHERE "id" = $1 AND "billing_state" = 'held' FOR UPDATE`, requestId);
  if (!locked.length) return null;
  const record = await tx.usageRecord.findFirst({ where: { id: requestId, ...(window ? { createdAt: window } : {}) } });
  if (!record || record.billingState !== 'held') return null;
  const shape = await tx.usageShape.findUnique({ where: { id: record.shapeId } });
  if (!shape) throw new Error(`usage record ${requestId}: its shape ${record.shapeId} is missing from usage_shapes`);
  const skeleton: unknown = JSON.parse(shape.skeleton);
  const parts = joinUsageRecordParts(skeleton, record.figures as unknown[]);
  return {
    record,
    lineItems: lineItemsSchema.parse(parts.line_items),
    withLineItems: (lineItems) => figuresInShape(skeleton, { ...parts, line_items: lineItems }) as Prisma.InputJsonArray,
  };
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
