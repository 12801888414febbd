import { request } from 'undici';
import { onCleanup } from './cleanup';
import type { BenchContext } from './context';
import { createTarget, runLoad, type RequestSpec, type Target } from './load';
import { account, compareStreams, errorsCell, errorsCheck, perRequest, streamJson, streamRows, validateChatStream, type Phase } from './phases';
import { round } from './stats';
import { fmt } from './table';
import { SIMULATOR_API_KEY } from './upstream';

/**
 * A streamed answer of an Anthropic model through the gateway, which reads
 * the Messages event stream and writes OpenAI chunks, against the same
 * Messages stream straight from the simulator. Reasoning is on and the answer
 * long, so that the per-event conversion dominates the per-request costs.
 */

const MODEL = 'claude-sonnet-4-5';
const CHUNK_CHARS = 16;
/** The simulator sends the whole stream at once: what is measured is the gateway's work per event, not the pacing. */
const PACE_MS = 0;
const LOADED_STREAMS = 10;
const ANTHROPIC_VERSION = '2023-06-01';

/** Events per stream, counted on every stream of a window (the answer is the same every time). */
class EventCount {
  streams = 0;
  min = Number.POSITIVE_INFINITY;
  max = 0;

  add(events: number): void {
    this.streams++;
    this.min = Math.min(this.min, events);
    this.max = Math.max(this.max, events);
  }

  /** The count when every stream had the same number, else NaN. */
  get perStream(): number {
    return this.streams && this.min === this.max ? this.min : Number.NaN;
  }

  cell(): string {
    if (!this.streams) return 'n/a';
    return this.min === this.max ? fmt.int(this.min) : `${fmt.int(this.min)}-${fmt.int(this.max)}`;
  }
}

/** `data:` frames the gateway sent, the final `[DONE]` included. */
const clientEvents = (text: string) => text.split('\n\n').filter((frame) => frame.startsWith('data: ')).length;
/** Named events of a Messages stream. */
const upstreamEvents = (text: string) => text.match(/^event: /gm)?.length ?? 0;

function gatewayRequest(ctx: BenchContext, counts: EventCount): RequestSpec {
  const directive = `[sim words=${ctx.settings.anthropicWords} chunk=${CHUNK_CHARS} pace=${PACE_MS}]`;
  const body = {
    model: MODEL,
    messages: [{ role: 'user', content: `Explain what a benchmark of a model gateway measures. ${directive}` }],
    stream: true,
    stream_options: { include_usage: true },
    reasoning: { effort: 'medium' },
    max_tokens: 4096,
  };
  return {
    method: 'POST',
    path: '/v1/chat/completions',
    body: JSON.stringify(body),
    stream: true,
    validate: (text) => {
      const problem = validateChatStream(text) ?? (text.includes('"reasoning_content"') ? undefined : 'no reasoning_content in the stream');
      if (!problem) counts.add(clientEvents(text));
      return problem;
    },
  };
}

function directRequest(upstreamBody: unknown, counts: EventCount): RequestSpec {
  return {
    method: 'POST',
    path: '/v1/messages',
    body: JSON.stringify(upstreamBody),
    stream: true,
    validate: (text) => {
      if (!text.startsWith('event: message_start')) return `not a Messages stream: ${text.slice(0, 200)}`;
      if (!text.includes('"thinking_delta"')) return 'no thinking in the Messages stream';
      if (!text.trimEnd().endsWith('{"type":"message_stop"}')) return `stream did not end with message_stop: ...${text.slice(-200)}`;
      counts.add(upstreamEvents(text));
      return undefined;
    },
  };
}

/**
 * Sends one stream through the gateway and reads back, from the simulator's
 * request log, the Messages body the gateway made of it: the direct side
 * then asks exactly the same.
 */
async function upstreamBodyOf(ctx: BenchContext, req: RequestSpec): Promise<unknown> {
  const result = await runLoad({ targets: [ctx.viaGateway], connections: 1, durationMs: Number.POSITIVE_INFINITY, requests: 1, request: req });
  account(ctx, 'Anthropic stream (probe)', result);
  const res = await request(`${ctx.simulator.url}/_sim/requests?limit=1`);
  const log = (await res.body.json()) as { requests: Array<{ method: string; path: string; body: unknown }> };
  const last = log.requests.at(-1);
  if (res.statusCode !== 200 || !last || last.method !== 'POST' || last.path !== '/v1/messages') {
    throw new Error(`the simulator did not log the gateway's Messages request (HTTP ${res.statusCode}; last: ${last ? `${last.method} ${last.path}` : 'none'})`);
  }
  return last.body;
}

export const anthropicStream: Phase = {
  id: 'anthropic_stream',
  async run(ctx) {
    const upstreamBody = await upstreamBodyOf(ctx, gatewayRequest(ctx, new EventCount()));
    const direct = createTarget('direct (Messages API)', ctx.simulator.url, { 'x-api-key': SIMULATOR_API_KEY, 'anthropic-version': ANTHROPIC_VERSION }, LOADED_STREAMS);
    const destroyDirect = onCleanup(() => direct.pool.destroy());
    const json: Record<string, unknown> = { model: MODEL, words: ctx.settings.anthropicWords, chunk_chars: CHUNK_CHARS, pace_ms: PACE_MS, upstream_body: upstreamBody };
    try {
      for (const n of [1, LOADED_STREAMS]) json[`streams_${n}`] = await measureAt(ctx, n, direct, upstreamBody);
    } finally {
      await direct.pool.close().catch(() => undefined);
      await destroyDirect();
    }
    ctx.report.json[this.id] = json;
  },
};

async function measureAt(ctx: BenchContext, n: number, direct: Target, upstreamBody: unknown): Promise<Record<string, unknown>> {
  const toClient = new EventCount();
  const fromUpstream = new EventCount();
  const c = await compareStreams(ctx, 'Anthropic stream', n, { target: ctx.viaGateway, request: gatewayRequest(ctx, toClient) }, { target: direct, request: directRequest(upstreamBody, fromUpstream) });
  const cpuPerStream = perRequest(c.gatewayCpuMs, c.g);
  const perUpstreamEvent = cpuPerStream / fromUpstream.perStream;
  const perClientEvent = cpuPerStream / toClient.perStream;
  const { report } = ctx;
  report.section(`Streamed Anthropic-protocol answer (${MODEL}, reasoning medium, ${ctx.settings.anthropicWords} words, ${CHUNK_CHARS}-char chunks, sent at once), ${n} ${n === 1 ? 'connection (alternating)' : 'concurrent streams'}`);
  streamRows(ctx, c, n);
  report.row('SSE events per stream (gateway: to client, [DONE] incl.)', toClient.cell(), fromUpstream.cell());
  report.row('gateway CPU per stream', fmt.ms(cpuPerStream, 3));
  report.row('gateway CPU per upstream event (conversion cost per chunk)', fmt.us(perUpstreamEvent));
  report.row('gateway CPU per event sent to the client', fmt.us(perClientEvent));
  report.row('errors (non-2xx + failed)', errorsCell(c.g), errorsCell(c.d), '', '0', errorsCheck(c.g, c.d));
  if (!Number.isFinite(toClient.perStream) || !Number.isFinite(fromUpstream.perStream)) {
    report.fail(`Anthropic stream, ${n} conn: the number of events varied between streams (gateway ${toClient.cell()}, upstream ${fromUpstream.cell()})`);
  }
  return streamJson(ctx, c, n, cpuPerStream, {
    client_events_per_stream: toClient.perStream,
    upstream_events_per_stream: fromUpstream.perStream,
    gateway_cpu_us_per_upstream_event: round(perUpstreamEvent * 1000, 2),
    gateway_cpu_us_per_client_event: round(perClientEvent * 1000, 2),
  });
}
