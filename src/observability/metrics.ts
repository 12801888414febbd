/**
 * A minimal Prometheus registry: counters, gauges and histograms with labels,
 * rendered in the text exposition format. Small on purpose: the hot path only
 * increments numbers in a Map.
 */

type Labels = Record<string, string>;

function labelKey(labels: Labels): string {
  let key = '';
  for (const name of Object.keys(labels).sort()) key += `${name}="${escapeLabel(labels[name])}",`;
  return key.slice(0, -1);
}

const NEEDS_ESCAPE = /[\\\n"]/;

function escapeLabel(value: string): string {
  if (!NEEDS_ESCAPE.test(value)) return value;
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

interface Metric {
  render(): string;
}

export class Counter implements Metric {
  private readonly values = new Map<string, number>();
  constructor(readonly name: string, readonly help: string, readonly type: 'counter' | 'gauge' = 'counter') {}

  inc(labels: Labels = {}, by = 1): void {
    const key = labelKey(labels);
    this.values.set(key, (this.values.get(key) ?? 0) + by);
  }

  set(labels: Labels, value: number): void {
    this.values.set(labelKey(labels), value);
  }

  get(labels: Labels = {}): number {
    return this.values.get(labelKey(labels)) ?? 0;
  }

  render(): string {
    let out = `# HELP ${this.name} ${this.help}\n# TYPE ${this.name} ${this.type}\n`;
    for (const [key, value] of this.values) out += `${this.name}${key ? `{${key}}` : ''} ${value}\n`;
    return out;
  }
}

export class Histogram implements Metric {
  private readonly series = new Map<string, { counts: number[]; sum: number; count: number }>();
  constructor(readonly name: string, readonly help: string, readonly buckets: number[]) {}

  observe(labels: Labels, value: number): void {
    const key = labelKey(labels);
    let s = this.series.get(key);
    if (!s) {
      s = { counts: new Array(this.buckets.length).fill(0), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]) s.counts[i]++;
    s.sum += value;
    s.count++;
  }

  render(): string {
    let out = `# HELP ${this.name} ${this.help}\n# TYPE ${this.name} histogram\n`;
    for (const [key, s] of this.series) {
      const sep = key ? `${key},` : '';
      this.buckets.forEach((le, i) => (out += `${this.name}_bucket{${sep}le="${le}"} ${s.counts[i]}\n`));
      out += `${this.name}_bucket{${sep}le="+Inf"} ${s.count}\n`;
      out += `${this.name}_sum${key ? `{${key}}` : ''} ${s.sum}\n${this.name}_count${key ? `{${key}}` : ''} ${s.count}\n`;
    }
    return out;
  }
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** The gateway's metrics; one instance per process. */
export class GatewayMetrics {
  readonly httpRequests = new Counter('gateway_http_requests_total', 'HTTP requests answered, by route and status.');
  readonly httpDuration = new Histogram('gateway_http_request_duration_seconds', 'Time from request to the end of the response.', LATENCY_BUCKETS);
  readonly inFlight = new Counter('gateway_requests_in_flight', 'Requests being served now.', 'gauge');
  readonly upstreamErrors = new Counter('gateway_upstream_errors_total', 'Failed upstream calls, by provider and status (0: no response).');
  readonly upstreamFallbacks = new Counter('gateway_upstream_fallbacks_total', 'Retryable upstream failures that moved to the next route.');
  readonly tokens = new Counter('gateway_tokens_total', 'Tokens billed, by model and dimension.');
  readonly usageRecordsWritten = new Counter('gateway_usage_records_written_total', 'Usage records committed to the database.');
  readonly usageRecordsSpooled = new Counter('gateway_usage_records_spooled_total', 'Usage records written to the local spool because the database failed.');
  readonly usageFlushDuration = new Histogram('gateway_usage_flush_duration_seconds', 'Time to commit one batch of usage records.', [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1]);

  readonly videoTasksSubmitted = new Counter('gateway_video_tasks_submitted_total', 'Video tasks accepted, by model.');
  readonly videoTasksFinished = new Counter('gateway_video_tasks_finished_total', 'Video tasks that reached a final state, by model and status.');
  readonly videoPolls = new Counter('gateway_video_polls_total', 'Upstream polls of video tasks, by provider.');
  readonly pubsubPublishFailures = new Counter('gateway_pubsub_publish_failures_total', 'Task updates Redis did not take (delivered to this instance only).');
  readonly keyChangePublishFailures = new Counter('gateway_key_change_publish_failures_total', 'Key changes (revocations) Redis did not take: other instances drop the key within GATEWAY_KEY_CACHE_MS.');
  readonly rateLimitUnavailable = new Counter('gateway_rate_limit_unavailable_total', 'Rate-limit checks Redis did not answer in time (counted per process, or refused when GATEWAY_RATE_LIMIT_REDIS_DOWN=closed).');
  readonly unhandledRejections = new Counter('gateway_unhandled_rejections_total', 'Promise rejections nothing handled (logged; the gateway keeps serving).');

  render(): string {
    const memory = globalThis.process.memoryUsage();
    const process = [
      gauge('gateway_process_resident_memory_bytes', 'Resident memory of the gateway process.', memory.rss),
      gauge('gateway_process_heap_total_bytes', 'JavaScript heap reserved by the gateway process.', memory.heapTotal),
      gauge('gateway_process_heap_used_bytes', 'JavaScript heap in use by the gateway process.', memory.heapUsed),
      gauge('gateway_process_external_memory_bytes', 'Memory held outside the JavaScript heap (buffers, WebAssembly).', memory.external),
    ].join('');
    return [
      this.httpRequests, this.httpDuration, this.inFlight, this.upstreamErrors, this.upstreamFallbacks,
      this.tokens, this.usageRecordsWritten, this.usageRecordsSpooled, this.usageFlushDuration,
      this.videoTasksSubmitted, this.videoTasksFinished, this.videoPolls, this.pubsubPublishFailures, this.keyChangePublishFailures, this.unhandledRejections, this.rateLimitUnavailable,
    ].map((m) => m.render()).join('') + process;
  }
}

function gauge(name: string, help: string, value: number): string {
  return `# HELP ${name} ${help}\n# TYPE ${name} gauge\n${name} ${value}\n`;
}
