import { inSpan, type Tracing } from '../observability/tracing';
import type { GatewayMetrics } from '../observability/metrics';
import type { PricingSource } from './pricing';
import type { SpendGuard } from './spend-guard';
import { buildUsageRecord, type UsageRecordInput } from './usage-record';
import type { UsageWriter } from './usage-writer';

/** Prices a request's usage at the table in force and hands the record to the writer. */
export class UsageRecorder {
  /** Requests whose record is promised but not yet handed to the writer (its queue, from where shutdown flushes or spools it). */
  private readonly open = new Set<object>();
  private wakeWhenNoneOpen: (() => void) | undefined;

  constructor(
    private readonly pricing: PricingSource,
    private readonly writer: UsageWriter,
    private readonly metrics: GatewayMetrics,
    /** The gateway's tracer: a record's write is a span under its request's. */
    private readonly tracing: Tracing,
    /** Holds before paid calls of accounts under spend control, handed to each call it records (call-spend.ts); without it nothing is held. */
    readonly spendGuard: SpendGuard | null = null,
  ) {}

  /** A request now owes a record (see UsageTicket). */
  opened(ticket: object): void {
    this.open.add(ticket);
  }

  closed(ticket: object): void {
    this.open.delete(ticket);
    if (!this.open.size) this.wakeWhenNoneOpen?.();
  }

  /**
   * Resolves once every open request has handed its record over (or after
   * `timeoutMs`): at shutdown, streams cut by closing their connections settle
   * a moment later, and their records must be in before the final flush.
   */
  async allHandedOver(timeoutMs: number): Promise<boolean> {
    if (!this.open.size) return true;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.wakeWhenNoneOpen = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  }

  /** The response of a committed record did not reach its client whole. */
  clientGone(requestId: string): void {
    this.writer.noteClientGone(requestId);
  }

  async record(input: UsageRecordInput): Promise<void> {
    const { prices, version } = this.pricing.currentPricing();
    const row = buildUsageRecord(input, prices, version);
    if (input.charge) {
      const account = row.accountId;
      for (const dim of row.dimensions) if (dim.quantity && dim.unit === 'tokens') this.metrics.tokens.inc({ model: row.model, dimension: dim.name, account }, dim.quantity);
      if (row.amountMicrousd > 0n) this.metrics.spend.inc({ model: row.model, account }, Number(row.amountMicrousd));
    }
    if (input.span?.isRecording()) input.span.setAttributes({
      'gen_ai.usage.input_tokens': row.promptTokens,
      'gen_ai.usage.output_tokens': row.completionTokens,
      'gateway.billed_microusd': Number(row.amountMicrousd),
      'gateway.pricing_version': row.pricingVersion,
      ...(row.errorCode ? { 'error.type': row.errorCode } : {}),
    });
    // From the record's hand-over to its commit (group-committed with others, or spooled).
    const span = this.tracing.childSpan(input.span, 'usage_record.write', { attributes: () => ({ 'db.system.name': 'postgresql', 'gateway.request_id': row.id }) });
    const written = inSpan(span, () => this.writer.write(row));
    // A hold inside a lease ends in memory now, with the charge its record books against the lease.
    input.leaseShare?.ended(row.amountMicrousd, written);
    return written;
  }
}
