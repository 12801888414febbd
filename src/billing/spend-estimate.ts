import { amountMicroUsd, type UnitPrice } from './price';
import type { PriceTable } from './price-table';
import type { UsageDimension } from './usage-dimensions';

/**
 * The most a call may use, known before it is made: what its hold is
 * priced from.
 */
export interface SpendEstimate {
  /** An upper bound of the prompt's tokens (its bytes, with allowances for images and files), before the model's own limit. */
  promptTokens: number;
  /** The request's output cap; null when it sets none (the model's maximum output then). */
  outputCap: number | null;
  /** Completions asked for at once (chat's `n`): each may reach the output cap. One when unset. */
  choices?: number;
  /** Other dimensions, taken as they are (a video's seconds). */
  dimensions?: UsageDimension[];
  /** Dimensions billed on every prompt and output token on top of their own price (a paid service tier). */
  perTokenDimensions?: string[];
}

/** A route a call may be served by: its prices' model and lane, and the model's token limits. */
export interface PricedRoute {
  modelId: string;
  lane: string;
  maxInputTokens: number;
  /** Null when the catalog gives none: the context window bounds the output then. */
  maxOutputTokens: number | null;
  contextWindow: number;
}

/** Dimensions a prompt token may be billed under, and those an output token may. */
const INPUT_DIMENSIONS = ['input', 'cache_miss', 'cache_read', 'cache_write_5m', 'cache_write_1h'];
const OUTPUT_DIMENSIONS = ['output', 'reasoning'];
/**
 * Each line item is rounded half up on its own: tokens split over up to five
 * line items may cost up to 2.5 micro-USD more than priced as one, so each
 * priced group gets 3 more.
 */
const ROUNDING_SLACK = 3n;

/**
 * The worst case of `estimate` on one route: the prompt (at most what the
 * model takes) at the dearest price a prompt token can have there (a cache
 * write costs more than plain input), the output cap (at most the model's)
 * for each completion asked for at the dearest output price, the per-token
 * dimensions on both, and the
 * other dimensions at their prices.
 * Never less than the charge of a call within those bounds, so a hold
 * covers its settlement.
 */
export function worstCaseMicrousd(prices: PriceTable, route: PricedRoute, estimate: SpendEstimate): bigint {
  const { modelId, lane } = route;
  const modelOutput = route.maxOutputTokens ?? route.contextWindow;
  const promptTokens = Math.min(Math.ceil(estimate.promptTokens), route.maxInputTokens);
  const outputTokens = Math.min(estimate.outputCap ?? modelOutput, modelOutput) * Math.max(1, estimate.choices ?? 1);
  let total = 0n;
  const input = dearest(prices, modelId, lane, INPUT_DIMENSIONS);
  if (input && promptTokens > 0) total += amountMicroUsd(promptTokens, input) + ROUNDING_SLACK;
  const output = dearest(prices, modelId, lane, OUTPUT_DIMENSIONS);
  if (output && outputTokens > 0) total += amountMicroUsd(outputTokens, output) + ROUNDING_SLACK;
  for (const name of estimate.perTokenDimensions ?? []) {
    const price = prices.priceOf(modelId, lane, name);
    if (price && promptTokens + outputTokens > 0) total += amountMicroUsd(promptTokens + outputTokens, price) + ROUNDING_SLACK;
  }
  for (const dim of estimate.dimensions ?? []) {
    const price = prices.priceOf(modelId, lane, dim.name);
    if (price) total += amountMicroUsd(dim.quantity, price);
  }
  return total;
}

/** A call's hold: its worst case on the dearest of the routes it may take (a fallback may be dearer than the first). */
export function holdMicrousd(prices: PriceTable, routes: PricedRoute[], estimate: SpendEstimate): bigint {
  let amount = 0n;
  for (const route of routes) {
    const worst = worstCaseMicrousd(prices, route, estimate);
    if (worst > amount) amount = worst;
  }
  return amount;
}

/** The highest unit price among `dimensions` on the lane. */
function dearest(prices: PriceTable, modelId: string, lane: string, dimensions: string[]): UnitPrice | null {
  let best: UnitPrice | null = null;
  for (const name of dimensions) {
    const price = prices.priceOf(modelId, lane, name);
    if (price && (!best || price.picoUsd * best.per > best.picoUsd * price.per)) best = price;
  }
  return best;
}
