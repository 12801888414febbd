import { amountMicroUsd, unitMicroUsd } from './price';
import type { PriceTable } from './price-table';
import type { UsageDimension } from './usage-dimensions';

export interface LineItem {
  dimension: string;
  quantity: number;
  unit_microusd: number;
  amount_microusd: number;
}

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
