import { onCleanup } from './cleanup';
import { against, type BenchContext } from './context';
import { createTarget, type RequestSpec, type TargetResult } from './load';
import { chatRequest, errorsCell, errorsCheck, measure, of, perRequest, targetJson, type Phase } from './phases';
import { median, round, summarize } from './stats';
import { fmt } from './table';

/**
 * Every door of the gateway beside chat completions, non-streaming, same
 * prompt and answer length everywhere: `/v1/chat/completions`,
 * `/v1/responses` to a model served natively (OpenAI's Responses API; sent
 * with `store: false`, so that no response is kept) and to one bridged
 * through the chat core (Claude), `/v1/messages` to Claude (served
 * natively) and to an OpenAI model (translated through the chat core), and
 * the Gemini API's `generateContent` to a Gemini model (native) and to an
 * OpenAI model (translated). Two measures per door, in interleaved rounds
 * (each round visits every door; medians over the rounds):
 *
 * - the gateway's CPU per request at the loaded phase's concurrency, judged
 *   against chat's (within 10 %);
 * - the added latency at one connection, alternating the gateway and the
 *   simulator called directly with the request the gateway sends upstream
 *   for that door (a translated door's direct side is the upstream's own
 *   protocol), p50 and p99.
 */

const REPETITIONS = 3;
const CLAUDE = 'claude-haiku-4-5';
const OPENAI = 'gpt-4.1-mini';
const GEMINI = 'gemini-2.5-flash';
/** Aim: a door's gateway CPU per request at most this much above chat's. */
const WITHIN_CHAT = 0.1;

interface Door {
  id: string;
  label: string;
  /** What the client sends to the gateway. */
  request: RequestSpec;
  /** What the gateway sends upstream, sent straight to the simulator. */
  direct: RequestSpec;
}

const prompt = (ctx: BenchContext) => `Say hello to the benchmark. [sim words=${ctx.settings.words}]`;

function messagesRequest(ctx: BenchContext, model: string): RequestSpec {
  return {
    method: 'POST',
    path: '/v1/messages',
    body: JSON.stringify({ model, max_tokens: 256, messages: [{ role: 'user', content: prompt(ctx) }] }),
    stream: false,
    validate: (text) => (/"type":\s*"message"/.test(text) && text.includes('"output_tokens"') ? undefined : `not a Message: ${text.slice(0, 200)}`),
  };
}

function responsesRequest(ctx: BenchContext, model: string): RequestSpec {
  return {
    method: 'POST',
    path: '/v1/responses',
    body: JSON.stringify({ model, input: prompt(ctx), store: false }),
    stream: false,
    validate: (text) => (/"object":\s*"response"/.test(text) && text.includes('"output_tokens"') ? undefined : `not a Response: ${text.slice(0, 200)}`),
  };
}

function generateContentRequest(ctx: BenchContext, model: string): RequestSpec {
  return {
    method: 'POST',
    path: `/v1beta/models/${model}:generateContent`,
    body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: prompt(ctx) }] }] }),
    stream: false,
    validate: (text) => (text.includes('"candidates"') && text.includes('"usageMetadata"') ? undefined : `not a GenerateContentResponse: ${text.slice(0, 200)}`),
  };
}

/** The same chat request to another model. */
function chatTo(chat: RequestSpec, model: string): RequestSpec {
  return { ...chat, body: JSON.stringify({ ...(JSON.parse(chat.body!) as object), model }) };
}

function doors(ctx: BenchContext): Door[] {
  const chat = chatRequest(ctx, false);
  return [
    { id: 'chat_completions_openai', label: `/v1/chat/completions -> OpenAI (${OPENAI})`, request: chat, direct: chat },
    { id: 'chat_completions_claude', label: `/v1/chat/completions -> Claude (${CLAUDE}), the bridged doors' upstream`, request: chatTo(chat, CLAUDE), direct: messagesRequest(ctx, CLAUDE) },
    { id: 'responses_openai', label: `/v1/responses -> OpenAI (${OPENAI}), native`, request: responsesRequest(ctx, OPENAI), direct: responsesRequest(ctx, OPENAI) },
    { id: 'responses_claude', label: `/v1/responses -> Claude (${CLAUDE}), bridged`, request: responsesRequest(ctx, CLAUDE), direct: messagesRequest(ctx, CLAUDE) },
    { id: 'messages_claude', label: `/v1/messages -> Claude (${CLAUDE}), native`, request: messagesRequest(ctx, CLAUDE), direct: messagesRequest(ctx, CLAUDE) },
    { id: 'messages_openai', label: `/v1/messages -> OpenAI (${OPENAI}), translated`, request: messagesRequest(ctx, OPENAI), direct: chat },
    { id: 'generate_content_gemini', label: `generateContent -> Gemini (${GEMINI}), native`, request: generateContentRequest(ctx, GEMINI), direct: generateContentRequest(ctx, GEMINI) },
    { id: 'generate_content_openai', label: `generateContent -> OpenAI (${OPENAI}), translated`, request: generateContentRequest(ctx, OPENAI), direct: chat },
  ];
}

/** `list` from its `start`-th item on, then its first items. */
function rotated<T>(list: T[], start: number): T[] {
  return [...list.slice(start), ...list.slice(0, start)];
}

/** A window of the door's load; a gateway that exits under it is reported with its output. */
async function watched<T>(ctx: BenchContext, door: Door, window: () => Promise<T>): Promise<T> {
  try {
    return await window();
  } finally {
    if (!ctx.gateway.handle.running) throw ctx.gateway.handle.describeFailure(`exited during the dialects phase (${door.id})`);
  }
}

interface Round {
  loaded: TargetResult;
  cpu: number;
  gateway: TargetResult;
  direct: TargetResult;
  /** Gateway CPU per request in the one-connection window (the direct calls do not reach it). */
  cpu1: number;
}

export const dialects: Phase = {
  id: 'dialects',
  async run(ctx) {
    const n = ctx.settings.connections;
    const list = doors(ctx);
    // One connection each way; the direct side carries every upstream's key header (the simulator takes any).
    const gateway1 = createTarget(`${ctx.viaGateway.name} (dialects, 1 conn)`, ctx.gateway.url, ctx.viaGateway.headers, 1);
    const direct1 = createTarget('direct (dialects, 1 conn)', ctx.simulator.url, {
      authorization: 'Bearer bench', 'x-api-key': 'bench', 'anthropic-version': '2023-06-01', 'x-goog-api-key': 'bench',
    }, 1);
    const closePools = onCleanup(() => Promise.all([gateway1.pool.destroy(), direct1.pool.destroy()]));
    const rounds = new Map<string, Round[]>(list.map((d) => [d.id, []]));
    try {
      for (let rep = 1; rep <= REPETITIONS; rep++) {
        // Each round starts at another door, so that no door always takes the place after the phase before
        // or after the same neighbour: a position's effect on the host spreads over the doors' medians.
        for (const door of rotated(list, Math.floor(((rep - 1) * list.length) / REPETITIONS))) {
          const loaded = await watched(ctx, door, () => measure(ctx, `dialects ${door.id} ${n} conn (${rep}/${REPETITIONS})`, { targets: [ctx.viaGateway], connections: n, request: door.request }));
          const g = of(loaded.result, ctx.viaGateway);
          const one = await watched(ctx, door, () => measure(ctx, `dialects ${door.id} 1 conn (${rep}/${REPETITIONS})`, {
            targets: [gateway1, direct1], connections: 1, request: (t) => (t === gateway1 ? door.request : door.direct),
          }));
          const g1 = of(one.result, gateway1);
          rounds.get(door.id)!.push({ loaded: g, cpu: perRequest(loaded.gatewayCpuMs, g), gateway: g1, direct: of(one.result, direct1), cpu1: perRequest(one.gatewayCpuMs, g1) });
        }
      }
    } finally {
      await closePools();
    }

    const { report } = ctx;
    report.section(`Client dialects, non-streaming: gateway CPU per request at ${n} connections, latency at 1 connection against the upstream directly (medians of ${REPETITIONS} interleaved rounds)`);
    const json: Record<string, unknown> = { connections: n, seconds: ctx.settings.seconds, repetitions: REPETITIONS, within_chat: WITHIN_CHAT };
    const cpuOf = (id: string) => median(rounds.get(id)!.map((r) => r.cpu));
    const chatId = list[0]!.id;
    const chatCpu = cpuOf(chatId);
    const addedOf = (r: Round) => {
      const g = summarize(r.gateway.latencyMs);
      const d = summarize(r.direct.latencyMs);
      return { p50: g.p50 - d.p50, p99: g.p99 - d.p99, g, d };
    };
    for (const door of list) {
      const rs = rounds.get(door.id)!;
      const cpu = cpuOf(door.id);
      const latency = rs.map(addedOf);
      const addedP50 = median(latency.map((l) => l.p50));
      const addedP99 = median(latency.map((l) => l.p99));
      const ratio = cpu / chatCpu - 1;
      const isChat = door.id === chatId;
      report.row(
        `${door.label}: CPU per request`,
        fmt.ms(cpu, 3),
        isChat ? '' : `chat ${fmt.ms(chatCpu, 3)}`,
        isChat ? '' : `${ratio >= 0 ? '+' : ''}${(100 * ratio).toFixed(1)} %`,
        isChat ? 'the reference' : `within ${100 * WITHIN_CHAT} % of chat`,
        isChat ? '' : against(ratio, WITHIN_CHAT, true),
      );
      report.row(
        '  1 conn: latency p50 / p99 (gateway, direct, added)',
        fmt.pair(median(latency.map((l) => l.g.p50)), median(latency.map((l) => l.g.p99))),
        fmt.pair(median(latency.map((l) => l.d.p50)), median(latency.map((l) => l.d.p99))),
        fmt.signedPair(addedP50, addedP99),
      );
      const all = rs.flatMap((r) => [r.loaded, r.gateway]);
      report.row('  errors (non-2xx + failed)', errorsCell(...all), errorsCell(...rs.map((r) => r.direct)), '', '0', errorsCheck(...all, ...rs.map((r) => r.direct)));
      json[door.id] = {
        cpu_ms_per_request: round(cpu, 4),
        cpu_vs_chat: round(ratio, 4),
        cpu_ms_per_request_1_conn: round(median(rs.map((r) => r.cpu1)), 4),
        added_p50_ms: round(addedP50, 3),
        added_p99_ms: round(addedP99, 3),
        rounds: rs.map((r) => ({ loaded: targetJson(r.loaded, { cpu_ms_per_request: round(r.cpu, 4) }), gateway_1_conn: targetJson(r.gateway), direct_1_conn: targetJson(r.direct) })),
      };
    }
    report.json[this.id] = json;
  },
};
