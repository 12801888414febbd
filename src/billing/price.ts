import type { PriceConfig } from '../config/gateway-config-schema';

/**
 * An exact price: `picoUsd` (10^-12 USD) for `per` units. Config prices are
 * decimal USD per million tokens (or per `per` units), parsed from their
 * decimal text so that no binary float ever touches money.
 */
export interface UnitPrice {
  picoUsd: bigint;
  per: bigint;
  /** The configured decimal, for display. */
  usd: string;
}

const PICO_PER_USD = 10n ** 12n;
const PICO_PER_MICRO = 10n ** 6n;

export function parseUnitPrice(price: PriceConfig): UnitPrice {
  const { usd, per } = typeof price === 'object' ? { usd: price.usd, per: price.per } : { usd: price, per: 1_000_000 };
  const text = typeof usd === 'number' ? decimalText(usd) : usd;
  return { picoUsd: decimalToPico(text), per: BigInt(per), usd: text };
}

function decimalText(n: number): string {
  // toString gives the shortest round-trip decimal (0.275, not 0.27500000000000002).
  const text = n.toString();
  if (/e/i.test(text)) return n.toFixed(12).replace(/0+$/, '').replace(/\.$/, '');
  return text;
}

function decimalToPico(text: string): bigint {
  const [whole, frac = ''] = text.split('.');
  if (frac.length > 12) throw new Error(`price ${text} has more than 12 decimals`);
  return BigInt(whole) * PICO_PER_USD + BigInt(frac.padEnd(12, '0'));
}

/** Micro-USD for `quantity` units, rounded half up once per line item. */
export function amountMicroUsd(quantity: number, price: UnitPrice): bigint {
  const divisor = price.per * PICO_PER_MICRO;
  return (BigInt(quantity) * price.picoUsd * 2n + divisor) / (2n * divisor);
}

/** Price of one unit in micro-USD; fractional for per-token prices (0.4 for $0.40 per million). */
export function unitMicroUsd(price: UnitPrice): number {
  return Number(price.picoUsd) / Number(price.per) / 1e6;
}
