import type { MeasuredUsage } from '../billing/usage-record';

/**
 * A search's usage: its billed units as the `web_search` dimension (priced
 * at the backend's `search_price`, a zero line item when it has none); no
 * tokens are read or written.
 */
export function searchUsage(provider: string, billableUnits: number, reported: Record<string, unknown>): MeasuredUsage {
  return {
    promptTokens: 0,
    completionTokens: 0,
    dimensions: [{ name: 'web_search', quantity: billableUnits, unit: 'units' }],
    measurement: { input: 'unavailable', output: 'unavailable' },
    providerUsage: { family: provider, raw_fields: reported },
  };
}
