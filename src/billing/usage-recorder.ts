import type { GatewayMetrics } from '../observability/metrics';
import type { PriceTable } from './price-table';
import { buildUsageRecord, type UsageRecordInput } from './usage-record';
import type { UsageWriter } from './usage-writer';

/** Prices a request's usage at the current table and hands the record to the writer. */
export class UsageRecorder {
  constructor(
    private readonly prices: PriceTable,
    readonly pricingVersion: number,
    private readonly writer: UsageWriter,
    private readonly metrics: GatewayMetrics,
  ) {}

  async record(input: UsageRecordInput): Promise<void> {
    const row = buildUsageRecord(input, this.prices, this.pricingVersion);
    if (input.charge) {
      for (const dim of row.dimensions) if (dim.quantity && dim.unit === 'tokens') this.metrics.tokens.inc({ model: row.model, dimension: dim.name }, dim.quantity);
    }
    await this.writer.write(row);
  }
}
