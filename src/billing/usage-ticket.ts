import type { Principal } from '../keys/principal';
import type { MeasuredUsage, PublicRouting, ServedBy } from './usage-record';
import type { DecisionStage, McpToolCall, SearchUsage } from './usage-record-columns';
import type { SpendHold } from './spend-hold';
import type { Span } from '@opentelemetry/api';
import type { UsageRecorder } from './usage-recorder';

export interface Settlement {
  statusCode: number;
  usage: MeasuredUsage | null;
  pricedAs: { modelId: string; lane: string } | null;
  charge: boolean;
  ttftMs: number | null;
  wasStreaming: boolean;
  servedBy: ServedBy | null;
  errorCode: string | null;
  /** The charge is held for this task until it ends (settled or refunded then). */
  heldForTask?: string;
  /** A web search: its queries, units, backend and route receipt. */
  search?: SearchUsage;
  /** A decision request's stage. */
  decision?: DecisionStage;
  /** An MCP tool call: the server, the tool and its outcome. */
  mcp?: McpToolCall;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The promise of exactly one usage record for one request. Whoever finishes
 * the request (the service on success, the error handler on failure)
 * settles it; the first settlement wins and later ones are ignored, so a
 * record is never missing and never written twice.
 */
export class UsageTicket {
  /** The model or route name the client asked for, once known. */
  model = '';
  private settled = false;
  private settledStatus: number | undefined;
  private clientGone = false;
  private markedClientGone = false;
  /** The record is committed (or spooled): a mark can follow it. */
  private written = false;
  /** Told the settlement as it is made (before the write): rate limits correct their token estimate here. */
  private settledListeners: ((s: Settlement) => void)[] = [];

  /**
   * Records what the client asked for before it is validated, so a refused
   * request still names its model: bounded, and without what PostgreSQL
   * cannot store in text (NUL characters, and halves of a surrogate pair,
   * which the cut at 256 can also leave behind).
   */
  noteRequestedModel(raw: unknown): void {
    if (typeof raw === 'string') this.model = raw.replace(/\u0000/g, '').slice(0, 256).replace(LONE_SURROGATE, '\ufffd');
  }

  constructor(
    private readonly recorder: UsageRecorder,
    readonly requestId: string,
    readonly principal: Principal,
    readonly endpoint: string,
    readonly createdAt: Date,
    private readonly startedAtMs: number,
    /** The request's span while traces are on: the record's usage and charge are set on it, and its write is a child. */
    private readonly span?: Span,
    /** The call's hold, as its spend control keeps it (call-spend.ts): the record carries it, and its write ends it. */
    private readonly heldBy: { readonly hold: SpendHold | null } = { hold: null },
  ) {
    recorder.opened(this);
  }

  /** Calls `listener` once, synchronously, with the settlement (no database wait); a listener must not throw. */
  onSettled(listener: (s: Settlement) => void): void {
    this.settledListeners.push(listener);
  }

  get isSettled(): boolean {
    return this.settled;
  }

  elapsedMs(): number {
    return Math.round(performance.now() - this.startedAtMs);
  }

  async settle(s: Settlement): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    this.settledStatus = s.statusCode;
    for (const listener of this.settledListeners) listener(s);
    let written: Promise<void>;
    try {
      // The record is in the writer's queue once this returns; only its commit is awaited below.
      written = this.record(s);
    } finally {
      this.recorder.closed(this);
    }
    await written;
    this.written = true;
    if (this.clientGone && !this.markedClientGone && s.statusCode < 400) this.markClientGone();
  }

  private async record(s: Settlement): Promise<void> {
    const routing: PublicRouting = {
      status_code: s.statusCode,
      total_duration_ms: this.elapsedMs(),
      ttft_ms: s.ttftMs,
      was_streaming: s.wasStreaming,
    };
    await this.recorder.record({
      requestId: this.requestId,
      principal: this.principal,
      createdAt: this.createdAt,
      model: this.model,
      endpoint: this.endpoint,
      usage: s.usage,
      pricedAs: s.pricedAs,
      charge: s.charge,
      routing,
      servedBy: s.servedBy,
      errorCode: s.errorCode,
      heldForTask: s.heldForTask,
      holdId: this.heldBy.hold?.id ?? null,
      leaseShare: this.heldBy.hold?.lease,
      search: s.search,
      decision: s.decision,
      mcp: s.mcp,
      span: this.span,
    });
  }

  /**
   * The client closed the connection before the whole response was written.
   * A record settled as answered (committed before the body went out) is
   * marked `client_gone`, now or once it is committed.
   */
  noteClientGone(): void {
    if (this.clientGone) return;
    this.clientGone = true;
    if (this.settledStatus !== undefined && this.settledStatus < 400 && this.written) this.markClientGone();
  }

  private markClientGone(): void {
    this.markedClientGone = true;
    this.recorder.clientGone(this.requestId);
  }

  /** A request that failed before any usage: recorded, not charged. */
  fail(statusCode: number, errorCode: string, wasStreaming = false): Promise<void> {
    return this.settle({ statusCode, usage: null, pricedAs: null, charge: false, ttftMs: null, wasStreaming, servedBy: null, errorCode });
  }
}
