/**
 * Per-request knobs. The gateway forwards what a client writes in its
 * messages but not the client's headers, so a test steers the simulator from
 * inside the prompt: `[sim status=429 retry_after=2]` anywhere in the last
 * user message. Several blocks may appear; later values win. A bare key
 * (`[sim hang]`) means `=1`.
 *
 * Unknown keys and malformed values are rejected rather than ignored: a typo
 * in a test's directive should fail loudly, not silently test the happy path.
 */
export interface Directives {
  /** Answer with this HTTP error status instead of a completion. */
  status?: number;
  /** The error's `code` field, overriding the one that goes with the status. */
  code?: string;
  /** Seconds to put in a `retry-after` header on the error. */
  retryAfter?: number;
  /** Fail only the first N times this same prompt is seen (status 500 unless `status` says otherwise). */
  failTimes?: number;
  /** Milliseconds before the first byte, replacing the start-up latency. */
  latencyMs?: number;
  /** Milliseconds between stream events, replacing the start-up pacing. */
  paceMs?: number;
  /** Characters of answer text per content chunk, replacing the start-up chunk size. */
  chunkSize?: number;
  /** Stream: close the connection abruptly after N content chunks. */
  cutAfter?: number;
  /** Stream: after N content chunks, send a frame whose data is not JSON (a malformed event), then end. */
  garbageAfter?: number;
  /** Drop the connection without answering, as a reset does (with `fail_times`, only the first N times). */
  reset?: boolean;
  /** Stream: send an in-stream error event after N content chunks, then end. */
  streamErrorAfter?: number;
  /** Replay the recorded response of this name instead of generating one. */
  replay?: string;
  /** Length of the generated answer, in words. */
  words?: number;
  /** How many tools to call at once when answering with tool calls. */
  toolCalls?: number;
  /** Never answer; hold the request open until the client goes away. */
  hang?: boolean;
  /** Video: milliseconds from submission to the end of generation, replacing the start-up `videoGenerationMs`. */
  generationMs?: number;
  /** Video: the finished video failed moderation (xAI `respect_moderation: false`). */
  moderated?: boolean;
  /** Video: the task ends failed instead of done. */
  fail?: boolean;
  /** Video: the task ends expired instead of done. */
  expire?: boolean;
  /** Video: the task never finishes; it stays pending. */
  never?: boolean;
  /** Video: the first N polls of the task fail with `status` (500 by default) and `retry_after`; the submission does not. */
  pollFailTimes?: number;
  /**
   * Anthropic stream: after N content events of a first message (a tool call's
   * input cut off mid-JSON when N stops there), start over with a fresh
   * `message_start` and stream the whole real answer, as an upstream that
   * restarts its message does.
   */
  restartAfter?: number;
  /** Chat Completions usage: report N prompt tokens (at most those not cached) as cache misses, DeepSeek style. */
  cacheMiss?: number;
  /**
   * Gemini stream: send each function call's arguments in pieces, as Gemini 3
   * on Vertex AI does with `streamFunctionCallArguments` (a start with the
   * name, `partialArgs` pieces, an end), so that adapters can be tested
   * against it.
   */
  streamArgs?: boolean;
  /**
   * Gemini stream: send, after the first content chunk, a chunk whose part
   * has a shape no Gemini answer has (`functionCall: {"partialArgs": 5}`),
   * to test how an adapter fails on an answer it cannot read.
   */
  badChunk?: boolean;
  /**
   * Web search: the failure, latency and hang knobs of the same request
   * (`status`, `code`, `retry_after`, `fail_times`, `latency`, `hang`) apply
   * only when this protocol answers it (`tavily`, `serper`, `exa`, `searxng`,
   * `brave`); any other search protocol answers normally, so a test can fail
   * one backend and watch the gateway fall back to the next. Only the search
   * routes read it; every other route ignores it.
   */
  on?: SearchProtocol;
  /**
   * Chat with structured output: the failure, latency and hang knobs apply
   * only to requests whose `response_format.json_schema.name` is this one
   * (`decision_answers` fails a decision's evaluation and not the question
   * generation before it).
   */
  schema?: string;
  /**
   * Web search: add one result on `offsite.example.invalid`, outside any
   * domain restriction the request made, so that a test can check that the
   * gateway drops results outside a key's allowlist.
   */
  offsite?: boolean;
  /**
   * Chat Completions: answer `logprobs: null` even when the request asks for
   * `logprobs: true`, as an upstream that does not return them does, so that
   * a client's fallback (to the numbers the model wrote) can be tested.
   */
  noLogprobs?: boolean;
  /**
   * Structured output named `decision_questions`: write questions a gateway
   * must turn down (an id with a space, a choice with a single option, a
   * score with eleven levels under a duplicate id) instead of usable ones.
   */
  unusableQuestions?: boolean;
}

/** The web search protocols the simulator speaks: the values `on=` takes. */
export const SEARCH_PROTOCOLS = ['tavily', 'serper', 'exa', 'searxng', 'brave'] as const;
export type SearchProtocol = (typeof SEARCH_PROTOCOLS)[number];

export type DirectiveParseResult = { ok: true; directives: Directives } | { ok: false; message: string };

const DIRECTIVE_BLOCK = /\[sim(?:\s+([^\]]*))?\]/gi;

type Setter = (directives: Directives, value: string) => string | undefined;

const integerSetter =
  (apply: (directives: Directives, value: number) => void): Setter =>
  (directives, value) => {
    if (!/^\d+$/.test(value)) return `expects a non-negative integer, got '${value}'`;
    apply(directives, Number(value));
    return undefined;
  };

const wordSetter =
  (apply: (directives: Directives, value: string) => void): Setter =>
  (directives, value) => {
    if (!/^[\w.:-]+$/.test(value)) return `expects a word, got '${value}'`;
    apply(directives, value);
    return undefined;
  };

const searchProtocolSetter =
  (apply: (directives: Directives, value: SearchProtocol) => void): Setter =>
  (directives, value) => {
    const protocol = SEARCH_PROTOCOLS.find((name) => name === value.toLowerCase());
    if (!protocol) return `expects one of ${SEARCH_PROTOCOLS.join(', ')}, got '${value}'`;
    apply(directives, protocol);
    return undefined;
  };

const SETTERS: { [key: string]: Setter } = {
  status: integerSetter((d, v) => (d.status = v)),
  code: wordSetter((d, v) => (d.code = v)),
  retry_after: integerSetter((d, v) => (d.retryAfter = v)),
  fail_times: integerSetter((d, v) => (d.failTimes = v)),
  latency: integerSetter((d, v) => (d.latencyMs = v)),
  pace: integerSetter((d, v) => (d.paceMs = v)),
  chunk: integerSetter((d, v) => (d.chunkSize = Math.max(1, v))),
  cut_after: integerSetter((d, v) => (d.cutAfter = v)),
  garbage_after: integerSetter((d, v) => (d.garbageAfter = v)),
  reset: integerSetter((d, v) => (d.reset = v > 0)),
  stream_error: integerSetter((d, v) => (d.streamErrorAfter = v)),
  replay: wordSetter((d, v) => (d.replay = v)),
  words: integerSetter((d, v) => (d.words = v)),
  tool_calls: integerSetter((d, v) => (d.toolCalls = Math.max(1, v))),
  hang: integerSetter((d, v) => (d.hang = v > 0)),
  gen_ms: integerSetter((d, v) => (d.generationMs = v)),
  moderated: integerSetter((d, v) => (d.moderated = v > 0)),
  fail: integerSetter((d, v) => (d.fail = v > 0)),
  expire: integerSetter((d, v) => (d.expire = v > 0)),
  never: integerSetter((d, v) => (d.never = v > 0)),
  poll_fail_times: integerSetter((d, v) => (d.pollFailTimes = v)),
  restart_after: integerSetter((d, v) => (d.restartAfter = v)),
  cache_miss: integerSetter((d, v) => (d.cacheMiss = v)),
  stream_args: integerSetter((d, v) => (d.streamArgs = v > 0)),
  bad_chunk: integerSetter((d, v) => (d.badChunk = v > 0)),
  on: searchProtocolSetter((d, v) => (d.on = v)),
  schema: wordSetter((d, v) => (d.schema = v)),
  offsite: integerSetter((d, v) => (d.offsite = v > 0)),
  no_logprobs: integerSetter((d, v) => (d.noLogprobs = v > 0)),
  unusable_questions: integerSetter((d, v) => (d.unusableQuestions = v > 0)),
};

/** The directives without their failure, latency, hang and reset knobs: for a request they are not aimed at (`on=`, `schema=`). */
export function withoutFailureKnobs(directives: Directives): Directives {
  const { status: _status, code: _code, retryAfter: _retryAfter, failTimes: _failTimes, latencyMs: _latencyMs, hang: _hang, reset: _reset, ...rest } = directives;
  return rest;
}

export function parseDirectives(text: string): DirectiveParseResult {
  const directives: Directives = {};
  for (const block of text.matchAll(DIRECTIVE_BLOCK)) {
    for (const setting of (block[1] ?? '').split(/\s+/).filter(Boolean)) {
      const [key = '', value = '1'] = splitOnce(setting, '=');
      const setter = SETTERS[key.toLowerCase()];
      if (!setter) return { ok: false, message: `Unknown simulator directive '${key}' in '${block[0]}'.` };
      const problem = setter(directives, value);
      if (problem) return { ok: false, message: `Simulator directive '${key}' ${problem}.` };
    }
  }
  return { ok: true, directives };
}

/** The text without its directives, so that knobs do not change the generated answer. */
export function stripDirectives(text: string): string {
  return text.replace(DIRECTIVE_BLOCK, '').trim();
}

function splitOnce(text: string, separator: string): [string, string?] {
  const at = text.indexOf(separator);
  return at < 0 ? [text] : [text.slice(0, at), text.slice(at + separator.length)];
}
