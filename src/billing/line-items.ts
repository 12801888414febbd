import { z } from 'zod';
import { amountMicroUsd, unitMicroUsd } from './price';
import type { PriceTable } from './price-table';
import type { UsageDimension } from './usage-dimensions';

export const lineItemSchema = z.object({
  dimension: z.string(),
  quantity: z.number(),
  unit_microusd: z.number(),
  amount_microusd: z.number().int(),
});

/** The `line_items` JSON column, read through its schema at the data-layer edge. */
export const lineItemsSchema = z.array(lineItemSchema);

export type LineItem = z.infer<typeof lineItemSchema>;

export interface Bill {
  lineItems: LineItem[];
  amountMicroUsd: bigint;
}

/** Prices each dimension at the model's lane; the total is the exact sum of the rounded line items. */
export function billDimensions(table: PriceTable, modelId: string, lane: string, dims: UsageDimension[]): Bill {
  let total = 0n;
  const lineItems: LineItem[] = [];
  for (const dim of dims) {
    const price = table.priceOf(modelId, lane, dim.name);
    const amount = price ? amountMicroUsd(dim.quantity, price) : 0n;
    total += amount;
    lineItems.push({ dimension: dim.name, quantity: dim.quantity, unit_microusd: price ? unitMicroUsd(price) : 0, amount_microusd: Number(amount) });
  }
  return { lineItems, amountMicroUsd: total };
}
