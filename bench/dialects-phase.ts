import type { BenchContext } from './context';
import type { RequestSpec } from './load';
import { chatRequest, errorsCell, errorsCheck, measure, of, perRequest, targetJson, type Phase } from './phases';
import { round, summarize } from './stats';
import { fmt } from './table';

/**
 * The client dialects beside chat completions: the gateway's CPU per
 * non-streaming request of `POST /v1/messages` to a Claude upstream (served
 * natively: the Messages body goes up as sent) and to an OpenAI upstream
 * (translated through the chat core and back), next to
 * `POST /v1/chat/completions` to the same OpenAI model, at the loaded
 * phase's concurrency. Same prompt and answer length everywhere.
 */

const CLAUDE = 'claude-haiku-4-5';
const OPENAI = 'gpt-4.1-mini';

function messagesRequest(ctx: BenchContext, model: string): RequestSpec {
  const body = {
    model,
    max_tokens: 256,
    messages: [{ role: 'user', content: `Say hello to the benchmark. [sim words=${ctx.settings.words}]` }],
  };
  return {
    method: 'POST',
    path: '/v1/messages',
    body: JSON.stringify(body),
    stream: false,
    validate: (text) => (text.includes('"type":"message"') && text.includes('"output_tokens"') ? undefined : `not a Message: ${text.slice(0, 200)}`),
  };
}

export const dialects: Phase = {
  id: 'dialects',
  async run(ctx) {
    const n = ctx.settings.connections;
    const rows: Array<{ id: string; label: string; request: RequestSpec }> = [
      { id: 'chat_completions_openai', label: `/v1/chat/completions -> OpenAI (${OPENAI})`, request: chatRequest(ctx, false) },
      { id: 'messages_claude', label: `/v1/messages -> Claude (${CLAUDE}), native`, request: messagesRequest(ctx, CLAUDE) },
      { id: 'messages_openai', label: `/v1/messages -> OpenAI (${OPENAI}), translated`, request: messagesRequest(ctx, OPENAI) },
    ];
    const { report } = ctx;
    report.section(`Client dialects, non-streaming, ${n} connections: gateway CPU per request`);
    const json: Record<string, unknown> = { connections: n, seconds: ctx.settings.seconds };
    for (const row of rows) {
      const m = await measure(ctx, `dialects ${row.id} ${n} conn`, { targets: [ctx.viaGateway], connections: n, request: row.request });
      const g = of(m.result, ctx.viaGateway);
      const cpu = perRequest(m.gatewayCpuMs, g);
      const latency = summarize(g.latencyMs);
      report.row(`${row.label}: CPU per request`, fmt.ms(cpu, 3));
      report.row('  latency p50 / p99', fmt.pair(latency.p50, latency.p99));
      report.row('  errors (non-2xx + failed)', errorsCell(g), '', '', '0', errorsCheck(g));
      json[row.id] = targetJson(g, { cpu_ms_per_request: round(cpu, 4) });
    }
    report.json[this.id] = json;
  },
};
