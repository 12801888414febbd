import type { PriceTable } from './price-table';

/** The price table in force and the version number usage records cite for it. */
export interface Pricing {
  prices: PriceTable;
  version: number;
}

/** Where the prices in force come from: they change when the catalog is edited at runtime. */
export interface PricingSource {
  currentPricing(): Pricing;
}
