import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export { Counter, Gauge, Histogram };

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const FIRST_TOKEN_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];
const FLUSH_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1];

/**
 * The gateway's Prometheus metrics (prom-client), one registry per gateway
 * (tests run several in one process). Label values are bounded: routes are
 * route patterns, providers and models come from the catalog, accounts are
 * the operator's; no request ids and no key ids. Node's process metrics
 * come from prom-client's default collectors under the `gateway_` prefix.
 */
export class GatewayMetrics {
  readonly registry = new Registry();

  readonly httpRequests = this.counter('gateway_http_requests_total', 'HTTP requests answered, by method, route and status.', ['method', 'route', 'status']);
  readonly httpDuration = this.histogram('gateway_http_request_duration_seconds', 'Time from request to the end of the response.', ['route'], LATENCY_BUCKETS);
  readonly errors = this.counter('gateway_errors_total', 'Error answers, by error.code and HTTP status (codes are the registry\'s, or an upstream\'s own for the two family codes).', ['code', 'status']);
  readonly inFlight = this.gauge('gateway_requests_in_flight', 'Requests being served now.', []);
  readonly streamsInFlight = this.gauge('gateway_streams_in_flight', 'Streamed answers (SSE and GraphQL subscriptions) being relayed now.', []);
  readonly upstreamErrors = this.counter('gateway_upstream_errors_total', 'Failed upstream calls, by provider and status (0: no response).', ['provider', 'status']);
  readonly upstreamFallbacks = this.counter('gateway_upstream_fallbacks_total', 'Retryable upstream failures that moved to the next route.', ['provider']);
  readonly upstreamRetries = this.counter('gateway_upstream_retries_total', 'Retryable upstream failures of a call\'s last route that were tried again after a pause.', ['provider']);
  readonly channelCoolDowns = this.counter('gateway_channel_cool_downs_total', 'Provider channels that failed repeatedly and were tried last for a while.', ['provider']);
  readonly upstreamDuration = this.histogram('gateway_upstream_request_duration_seconds', 'Time of one upstream attempt to its whole answer (non-streamed calls), by provider and model.', ['provider', 'model'], LATENCY_BUCKETS);
  readonly upstreamTimeToFirstToken = this.histogram('gateway_upstream_time_to_first_token_seconds', 'Time of one streamed upstream attempt to its first event, by provider and model.', ['provider', 'model'], FIRST_TOKEN_BUCKETS);
  readonly tokens = this.counter('gateway_tokens_total', "Tokens billed, by model, dimension and the key's account.", ['model', 'dimension', 'account']);
  readonly spend = this.counter('gateway_spend_microusd_total', "Micro-USD charged on usage records, by model and the key's account.", ['model', 'account']);
  readonly usageRecordsWritten = this.counter('gateway_usage_records_written_total', 'Usage records committed to the database.', []);
  readonly usageRecordsSpooled = this.counter('gateway_usage_records_spooled_total', 'Usage records written to the local spool because the database failed.', []);
  readonly usageSpoolDepth = this.gauge('gateway_usage_spool_depth', 'Usage records in the local spool waiting to be replayed into the database.', []);
  readonly usageFlushDuration = this.histogram('gateway_usage_flush_duration_seconds', 'Time to commit one batch of usage records.', [], FLUSH_BUCKETS);

  readonly videoTasksSubmitted = this.counter('gateway_video_tasks_submitted_total', 'Video tasks accepted, by model.', ['model']);
  readonly videoTasksFinished = this.counter('gateway_video_tasks_finished_total', 'Video tasks that reached a final state, by model and status.', ['model', 'status']);
  readonly videoTasks = this.gauge('gateway_video_tasks', 'Video tasks in the database, by state (read when scraped).', ['state']);
  readonly videoPolls = this.counter('gateway_video_polls_total', 'Upstream polls of video tasks, by provider.', ['provider']);
  readonly taskUpdateSubscribers = this.gauge('gateway_task_update_subscribers', 'GraphQL task-update subscriptions listening on this instance now (read when scraped).', []);
  readonly pubsubPublishFailures = this.counter('gateway_pubsub_publish_failures_total', 'Task updates Redis did not take (delivered to this instance only).', []);
  readonly keyChangePublishFailures = this.counter('gateway_key_change_publish_failures_total', 'Key changes (revocations) Redis did not take: other instances drop the key within GATEWAY_KEY_CACHE_MS.', []);
  readonly rateLimitUnavailable = this.counter('gateway_rate_limit_unavailable_total', 'Rate-limit checks Redis did not answer in time (counted per process, or refused when GATEWAY_RATE_LIMIT_REDIS_DOWN=closed).', []);
  readonly unhandledRejections = this.counter('gateway_unhandled_rejections_total', 'Promise rejections nothing handled (logged; the gateway keeps serving).', []);

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'gateway_' });
  }

  /** The exposition text of every metric, for `/metrics`. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** Reads the video task gauge from `count` each time the metrics are scraped. */
  countVideoTasksWith(count: () => Promise<Array<{ state: string; count: number }>>): void {
    onScrape(this.videoTasks, async (gauge) => {
      gauge.reset();
      for (const row of await count().catch(() => [])) gauge.set({ state: row.state }, row.count);
    });
  }

  /** Reads the spool depth from the spool each time the metrics are scraped. */
  readSpoolDepthFrom(spool: { depth: number }): void {
    onScrape(this.usageSpoolDepth, (gauge) => gauge.set(spool.depth));
  }

  /** Reads the open task-update subscriptions from the bus each time the metrics are scraped. */
  countTaskUpdateSubscribersOf(bus: { subscriberCount: number }): void {
    onScrape(this.taskUpdateSubscribers, (gauge) => gauge.set(bus.subscriberCount));
  }

  private counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  private gauge<L extends string>(name: string, help: string, labelNames: readonly L[]): Gauge<L> {
    return new Gauge({ name, help, labelNames, registers: [this.registry] });
  }

  private histogram<L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]): Histogram<L> {
    return new Histogram({ name, help, labelNames, buckets, registers: [this.registry] });
  }
}

/** prom-client calls a metric's `collect` before each scrape; set here, once the source exists. */
function onScrape<L extends string>(gauge: Gauge<L>, collect: (gauge: Gauge<L>) => void | Promise<void>): void {
  (gauge as unknown as { collect: () => void | Promise<void> }).collect = () => collect(gauge);
}

/** The current value of one labelled series of a counter or gauge (tests and health checks). */
export async function valueOf(metric: Counter<string> | Gauge<string>, labels: Record<string, string> = {}): Promise<number> {
  const { values } = await metric.get();
  const names = Object.keys(labels);
  const found = values.find((v) => Object.keys(v.labels).length === names.length && names.every((n) => String(v.labels[n]) === labels[n]));
  return found?.value ?? 0;
}
