import fc from 'fast-check';
import { gzipSync } from 'node:zlib';

/**
 * Requests as an attacker or a broken client writes them, for property-based
 * fuzzing of every route (the e2e fuzz test, and the fuzz drill at scale):
 * malformed paths, ids, methods, auth, content types and bodies (wrong
 * types, huge and negative numbers, deep nesting, invalid UTF-8, bad and
 * gzip-bombed gzip). Whatever arrives, the gateway must answer below 500
 * (except the documented 503s), and every refusal carries its request id
 * in the body and in X-Svc-Request-Id alike.
 */
export const DOCUMENTED_503 = new Set(['gateway_overloaded', 'gateway_shutting_down', 'upstream_overloaded']);

const MODELS = ['decision-gpt-4.1-mini', 'decision-gpt-4.1-nano', 'gpt-4.1-mini', 'o3', 'claude-sonnet-4-5', 'gemini-2.5-flash', 'text-embedding-3-small', 'sora-2', 'gen-imagine-video', 'fast', 'nope'];

/** Ids as an attacker writes them: percent-encoded control characters, NUL, very long, dots, unicode. */
const id = fc.oneof(
  { arbitrary: fc.constantFrom('%00', 'video_%00abc', 'req_%00', 'key_%00', 'req_%01', '%0a', '%ff', '%E2%80%AE', '..', '%2e%2e', 'a'.repeat(5000), 'video_0', 'req_0', 'key_0'), weight: 3 },
  { arbitrary: fc.string({ maxLength: 40 }).map((s) => encodeURIComponent(s)), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 20 }).map((s) => encodeURIComponent(s)), weight: 1 },
);

/** Every route with the method it serves; the id routes take the ids above. */
const ROUTES: Array<[string, (id: string) => string]> = [
  ['POST', () => '/v1/chat/completions'],
  ['POST', () => '/v1/embeddings'],
  ['POST', () => '/v1/search'],
  ['POST', () => '/v1/decisions'],
  ['POST', () => '/v1/messages'],
  ['POST', () => '/v1/messages/count_tokens'],
  ['PATCH', (x) => `/api/admin/keys/${x}`],
  ['POST', () => '/v1/videos'],
  ['POST', () => '/v1/videos/generations'],
  ['GET', (x) => `/v1/videos?limit=${x}&order=${x}&after=${x}`],
  ['GET', (x) => `/v1/videos/${x}`],
  ['DELETE', (x) => `/v1/videos/${x}`],
  ['GET', (x) => `/v1/videos/${x}/content`],
  ['POST', (x) => `/v1/videos/${x}/remix`],
  ['GET', (x) => `/v1/responses/${x}`],
  ['DELETE', (x) => `/v1/responses/${x}`],
  ['GET', (x) => `/v1/responses/${x}/input_items?limit=${x}&order=${x}&after=${x}&before=${x}&include[]=${x}`],
  ['GET', () => '/v1/models'],
  ['GET', (x) => `/v1/models/${x}`],
  ['GET', (x) => `/api/models/catalog?endpoint_type=${x}`],
  ['GET', (x) => `/api/usage/requests/${x}`],
  ['GET', () => '/api/admin/keys'],
  ['POST', () => '/api/admin/keys'],
  ['DELETE', (x) => `/api/admin/keys/${x}`],
  ['POST', () => '/graphql'],
  ['GET', (x) => `/graphql?query=${x}`],
  ['GET', () => '/healthz'],
  ['GET', () => '/readyz'],
  ['GET', (x) => `/${x}`],
];

const route = fc.tuple(fc.constantFrom(...ROUTES), id, fc.option(fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD'), { nil: undefined, freq: 4 })).map(
  ([[method, build], x, otherMethod]) => ({ method: otherMethod ?? method, path: build(x) }),
);

/** Bodies near the real shapes, with wrong types, out-of-range numbers and odd strings in every field. */
const body = fc.oneof(
  fc.jsonValue(),
  fc.record(
    {
      model: fc.oneof(fc.constantFrom(...MODELS), fc.string(), fc.anything()),
      messages: fc.oneof(
        fc.array(fc.record({ role: fc.oneof(fc.constantFrom('user', 'system', 'assistant', 'tool', 'developer'), fc.string()), content: fc.oneof(fc.string({ maxLength: 50 }), fc.anything()) }, { requiredKeys: [] }), { maxLength: 4 }),
        fc.anything(),
      ),
      input: fc.oneof(fc.string({ maxLength: 30 }), fc.array(fc.string({ maxLength: 10 }), { maxLength: 4 }), fc.anything()),
      prompt: fc.oneof(fc.string({ maxLength: 40 }), fc.anything()),
      max_tokens: fc.oneof(fc.integer(), fc.double(), fc.anything()),
      temperature: fc.oneof(fc.double(), fc.anything()),
      stream: fc.oneof(fc.boolean(), fc.anything()),
      reasoning: fc.anything(),
      tools: fc.anything(),
      duration: fc.anything(),
      seconds: fc.anything(),
      size: fc.anything(),
      image: fc.anything(),
      dimensions: fc.anything(),
      name: fc.anything(),
      query: fc.oneof(fc.string({ maxLength: 60 }), fc.anything()),
      backend: fc.oneof(fc.constantFrom('auto', 'tavily', 'serper', 'exa', 'searxng', 'brave', 'nope'), fc.anything()),
      max_results: fc.oneof(fc.integer(), fc.double(), fc.anything()),
      include_domains: fc.oneof(fc.array(fc.string({ maxLength: 20 }), { maxLength: 3 }), fc.anything()),
      provider_options: fc.anything(),
      state: fc.oneof(fc.string({ maxLength: 60 }), fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue(), { maxKeys: 3 }), fc.anything()),
      questions: fc.oneof(
        fc.dictionary(fc.string({ maxLength: 10 }), fc.record({ type: fc.oneof(fc.constantFrom('noul', 'choice', 'score'), fc.anything()), instructions: fc.oneof(fc.string({ maxLength: 30 }), fc.anything()), criteria: fc.anything() }, { requiredKeys: [] }), { maxKeys: 4 }),
        fc.anything(),
      ),
      question_generation: fc.oneof(fc.record({ enabled: fc.oneof(fc.boolean(), fc.anything()), model: fc.anything() }, { requiredKeys: [] }), fc.anything()),
      images: fc.oneof(fc.array(fc.oneof(fc.constantFrom('data:image/png;base64,iVBORw0KGgo=', 'https://example.com/a.png', 'file-abc', 'data:audio/wav;base64,AAAA'), fc.string(), fc.anything()), { maxLength: 6 }), fc.anything()),
      allowed_domains: fc.anything(),
      variables: fc.anything(),
    },
    { requiredKeys: [] },
  ),
);

export interface Probe {
  route: { method: string; path: string };
  auth: 'key' | 'bad' | 'none' | 'admin';
  body?: { kind: 'json' | 'raw' | 'gzip-json' | 'bad-gzip' | 'gzip-bomb' | 'invalid-utf8'; value: unknown };
  /** Instead of `body`: a chat request whose tool schema nests this deep (built as text: fast-check cannot hold it as a value). */
  deepTool?: number;
  contentType?: string;
}

export const probe: fc.Arbitrary<Probe> = fc.record({
  route,
  auth: fc.constantFrom<Probe['auth']>('key', 'key', 'key', 'key', 'bad', 'none', 'admin'),
  body: fc.option(fc.record({ kind: fc.constantFrom<NonNullable<Probe['body']>['kind']>('json', 'json', 'raw', 'gzip-json', 'bad-gzip', 'gzip-bomb', 'invalid-utf8'), value: fc.oneof(body, fc.string({ unit: 'binary', maxLength: 200 })) }), { nil: undefined }),
  deepTool: fc.option(fc.integer({ min: 100, max: 60_000 }), { nil: undefined, freq: 8 }),
  contentType: fc.option(fc.constantFrom('application/json', 'text/plain', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'application/graphql'), { nil: undefined }),
});

/** Who a probe claims to be: the key and the admin token of the gateway under test. */
export interface ProbeCredentials {
  key: string;
  adminToken: string;
}

/** The fetch a probe makes against `origin`. */
export function probeRequest(p: Probe, origin: string, who: ProbeCredentials, timeoutMs = 20_000): { url: string; init: RequestInit } {
  const headers: Record<string, string> = {};
  if (p.auth === 'key') headers.authorization = `Bearer ${who.key}`;
  if (p.auth === 'bad') headers.authorization = 'Bearer sk-gw-not-a-key';
  if (p.auth === 'admin' || (p.auth === 'key' && p.route.path.startsWith('/api/admin'))) headers.authorization = `Bearer ${who.adminToken}`;
  if (p.contentType) headers['content-type'] = p.contentType;
  let payload: string | Buffer | undefined;
  if (p.body && p.route.method !== 'GET' && p.route.method !== 'HEAD') {
    const text = typeof p.body.value === 'string' && p.body.kind === 'raw' ? p.body.value : JSON.stringify(p.body.value) ?? 'null';
    payload = p.body.kind === 'gzip-json' ? gzipSync(text)
      : p.body.kind === 'bad-gzip' ? Buffer.from(text)
      : p.body.kind === 'gzip-bomb' ? gzipBomb()
      // Bytes that are no UTF-8 at all (a stray continuation byte, a truncated sequence) inside a JSON string.
      : p.body.kind === 'invalid-utf8' ? Buffer.concat([Buffer.from('{"model":"gpt-4.1-mini","messages":[{"role":"user","content":"'), Buffer.from([0xff, 0x80, 0xc3]), Buffer.from('"}]}')])
      : text;
    if (p.body.kind === 'gzip-json' || p.body.kind === 'bad-gzip' || p.body.kind === 'gzip-bomb') headers['content-encoding'] = 'gzip';
  }
  if (p.deepTool && p.route.method === 'POST') {
    const n = p.deepTool;
    payload = `{"model":"gpt-4.1-mini","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":${'{"x":'.repeat(n)}1${'}'.repeat(n)}}}]}`;
  }
  return { url: `${origin}${p.route.path}`, init: { method: p.route.method, headers, body: payload, signal: AbortSignal.timeout(timeoutMs) } };
}

let bomb: Buffer | undefined;

/** 64 MB of zeros in about 64 KB of gzip: a body that is small on the wire and huge once inflated (made once). */
function gzipBomb(): Buffer {
  return (bomb ??= gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 }));
}

/** What is wrong with the answer to a probe, or undefined when it is as it must be. */
export function answerProblem(p: Probe, status: number, requestId: string | null, text: string): string | undefined {
  const context = `${p.route.method} ${p.route.path} -> ${status} ${text.slice(0, 300)}`;
  if (!requestId) return `no X-Svc-Request-Id: ${context}`;
  if (status < 400 || p.route.method === 'HEAD') return undefined;
  let answer: { type?: string; request_id?: string; error?: { code: string; type?: string; request_id: string }; errors?: Array<{ extensions?: { request_id?: string; code?: string } }> };
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    return `a refusal that is not JSON: ${context}`;
  }
  if (answer.errors) {
    // GraphQL's own shape: the id is in each error's extensions.
    return answer.errors.every((e) => e.extensions?.request_id === requestId) ? undefined : `a GraphQL error without the request id: ${context}`;
  }
  if (answer.type === 'error') {
    // Anthropic's shape (the Messages routes): the id beside the error, an overloaded gateway as `overloaded_error`.
    if (answer.request_id !== requestId) return `an Anthropic-shaped refusal without its request id: ${context}`;
    return status >= 500 && !(status === 503 && answer.error?.type === 'overloaded_error') ? `a ${status}: ${context}` : undefined;
  }
  if (answer.error?.request_id !== requestId) return `a refusal outside the error envelope or without its request id: ${context}`;
  if (status >= 500 && !(status === 503 && DOCUMENTED_503.has(answer.error.code))) return `a ${status}: ${context}`;
  return undefined;
}
