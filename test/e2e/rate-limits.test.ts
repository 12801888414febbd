import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import OpenAI from 'openai';
import { loadGatewayConfig } from '../../src/config/load-config';
import { eventually } from '../support/eventually';
import { ADMIN_TOKEN, fetchUsageRecord, startTestGateway, type TestGateway } from '../support/test-gateway';
import { instancesOnOneDatabase } from '../support/instances-on-one-database';
import { ChatCompletionDocument } from '../graphql/generated/graphql';
import { runOverWs, wsClient, type SubscriptionOutcome } from '../graphql/graphql-test-client';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const MODEL = 'gpt-4.1-mini';
const messages = [{ role: 'user' as const, content: 'Hello' }];

/** A Redis key prefix of its own, so test files running at once never share counters. */
const freshPrefix = () => `test-ratelimit-${randomUUID()}`;

/** One chat call: the SDK's answer with its headers, or the API error it threw. */
async function chat(client: OpenAI, body: Partial<OpenAI.ChatCompletionCreateParamsNonStreaming> = {}) {
  try {
    const { response } = await client.chat.completions.create({ model: MODEL, messages, ...body }).withResponse();
    return { status: response.status, headers: response.headers, error: undefined };
  } catch (err) {
    if (!(err instanceof OpenAI.APIError)) throw err;
    return { status: err.status, headers: err.headers as Headers, error: err };
  }
}

/** The first GraphQL error of a subscription, sent as a result or as the `error` message that ended it. */
function firstError(outcome: SubscriptionOutcome<unknown>): { extensions?: Record<string, unknown> } | undefined {
  return (outcome.results.at(-1)?.errors?.[0] ?? (outcome.failure as Array<{ extensions?: Record<string, unknown> }> | undefined)?.[0]) as never;
}

const sdk = (t: TestGateway, key: string) => new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });

describe('rate limits in one gateway (per process)', () => {
  let t: TestGateway | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('refuses the fourth request of a minute on a key limited to 3, with Retry-After and x-ratelimit headers, and leaves other keys alone', async () => {
    t = await startTestGateway({ env: { GATEWAY_RATE_LIMIT_KEY_RPM: '3' } });
    const [keyA, keyB] = [await t.createKey(), await t.createKey()];
    const a = sdk(t, keyA);
    for (const remaining of ['2', '1', '0']) {
      const ok = await chat(a);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-ratelimit-limit-requests')).toBe('3');
      expect(ok.headers.get('x-ratelimit-remaining-requests')).toBe(remaining);
      expect(ok.headers.get('x-ratelimit-reset-requests')).toMatch(/^((\d+m)?\d+(\.\d+)?s|\d+ms)$/);
      // No token limit is set: no token headers.
      expect(ok.headers.get('x-ratelimit-limit-tokens')).toBeNull();
    }
    const refused = await chat(a);
    expect(refused.status).toBe(429);
    expect(refused.error?.code).toBe('rate_limit_exceeded');
    expect(refused.error?.type).toBe('rate_limit_error');
    expect(refused.error?.message).toMatch(/requests per minute of this API key \(limit 3\); it resets in \d+ s/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(Number(refused.headers.get('retry-after-ms'))).toBeLessThan(60_000);
    expect(refused.headers.get('x-ratelimit-remaining-requests')).toBe('0');

    // The refusal has its one usage record, uncharged, with the status the client got.
    const requestId = refused.headers.get('x-svc-request-id')!;
    const record = await eventually(async () => {
      const r = await fetchUsageRecord(t!, keyA, requestId);
      return r.status === 200 ? r.body : undefined;
    }, 'the usage record of the refused request');
    expect(record.routing.status_code).toBe(429);

    expect((await chat(sdk(t, keyB))).status).toBe(200);
  });

  it('holds the GraphQL chatCompletion subscription to the same per-key limit as REST', async () => {
    t = await startTestGateway({ env: { GATEWAY_RATE_LIMIT_KEY_RPM: '2' } });
    const key = await t.createKey();
    expect((await chat(sdk(t, key))).status).toBe(200);
    const client = wsClient(t, { authorization: `Bearer ${key}` });
    try {
      const input = { model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Hi [sim words=3]' }] };
      const first = await runOverWs(client, ChatCompletionDocument, { input });
      expect(first.failure).toBeUndefined();
      expect(first.results.at(-1)?.errors).toBeUndefined();
      const refused = await runOverWs(client, ChatCompletionDocument, { input });
      expect(firstError(refused)?.extensions).toMatchObject({ code: 'rate_limit_exceeded' });
    } finally {
      await client.dispose();
    }
  });

  it("counts a temporary credential's calls against its parent key's limit, over REST and the GraphQL subscription", async () => {
    t = await startTestGateway({ env: { GATEWAY_RATE_LIMIT_KEY_RPM: '5' } });
    const parent = await t.createKey({ name: 'parent' });
    const mint = async () => {
      const res = await fetch(`${t!.url}/api/credentials`, { method: 'POST', headers: { authorization: `Bearer ${parent}`, 'content-type': 'application/json' }, body: JSON.stringify({}) });
      return ((await res.json()) as { key: string }).key;
    };
    const [one, two, three] = [await mint(), await mint(), await mint()];
    expect((await chat(sdk(t, parent))).status).toBe(200);
    expect((await chat(sdk(t, one))).status).toBe(200);
    expect((await chat(sdk(t, two))).status).toBe(200);
    expect((await chat(sdk(t, three))).status).toBe(200);
    const last = await chat(sdk(t, one));
    expect(last.status).toBe(200);
    expect(last.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    for (const key of [parent, one, two, three]) {
      const refused = await chat(sdk(t, key));
      expect(refused.status).toBe(429);
      expect(refused.error?.message).toContain('requests per minute of this API key (limit 5)');
    }
    const client = wsClient(t, { authorization: `Bearer ${three}` });
    try {
      const refused = await runOverWs(client, ChatCompletionDocument, { input: { model: MODEL, messages: [{ role: 'user', content: 'Hi [sim words=3]' }] } });
      expect(firstError(refused)?.extensions).toMatchObject({ code: 'rate_limit_exceeded' });
    } finally {
      await client.dispose();
    }
  });

  it('holds an account limit across the keys of the account', async () => {
    t = await startTestGateway({ env: { GATEWAY_RATE_LIMIT_ACCOUNT_RPM: '3' } });
    const [one, two] = [sdk(t, await t.createKey()), sdk(t, await t.createKey())];
    expect((await chat(one)).status).toBe(200);
    expect((await chat(two)).status).toBe(200);
    expect((await chat(one)).status).toBe(200);
    const refused = await chat(two);
    expect(refused.status).toBe(429);
    expect(refused.error?.message).toContain("requests per minute of this key's account (limit 3)");
  });

  it("holds a model's rpm from the catalog across keys, and not other models", async () => {
    const base = loadGatewayConfig({}).config;
    const config = { ...base, models: base.models.map((m) => (m.id === MODEL ? { ...m, rate_limits: { rpm: 2 } } : m)) };
    t = await startTestGateway({ config });
    const [one, two] = [sdk(t, await t.createKey()), sdk(t, await t.createKey())];
    expect((await chat(one)).status).toBe(200);
    expect((await chat(two)).status).toBe(200);
    const refused = await chat(one);
    expect(refused.status).toBe(429);
    expect(refused.error?.message).toContain(`requests per minute of model "${MODEL}" (limit 2)`);
    expect((await chat(two, { model: 'gpt-4.1' })).status).toBe(200);
  });

  it('charges max_tokens against a token limit at admission and corrects it to the real usage afterwards', async () => {
    t = await startTestGateway({ env: { GATEWAY_RATE_LIMIT_KEY_TPM: '1000' } });
    const client = sdk(t, await t.createKey());
    const first = await chat(client, { max_tokens: 600 });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit-tokens')).toBe('1000');
    // The estimate: 600 output tokens plus a few for the prompt.
    expect(Number(first.headers.get('x-ratelimit-remaining-tokens'))).toBeLessThanOrEqual(400);
    // 600 more would not fit next to the first estimate; they fit because the first was corrected to its real, small usage.
    const second = await chat(client, { max_tokens: 600 });
    expect(second.status).toBe(200);
    expect(Number(second.headers.get('x-ratelimit-remaining-tokens'))).toBeGreaterThan(100);
    // One request estimated over the whole limit is refused, and says what to change.
    const tooBig = await chat(client, { max_tokens: 2000 });
    expect(tooBig.status).toBe(429);
    expect(tooBig.error?.message).toMatch(/estimated at \d+ tokens, more than the tokens per minute of this API key \(limit 1000\)\. Lower max_tokens/);
    expect(tooBig.headers.get('x-ratelimit-limit-tokens')).toBe('1000');
  });
});

describe('rate limits across two instances (PostgreSQL and Redis)', () => {
  const instances = instancesOnOneDatabase();

  it('lets exactly 4 of 6 requests through for a key limited to 4 a minute, 3 sent to each instance', async () => {
    const common = {
      REDIS_URL, GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN,
      GATEWAY_RATE_LIMIT_KEY_RPM: '4', GATEWAY_RATE_LIMIT_REDIS_PREFIX: freshPrefix(),
    };
    const [a, b] = await Promise.all([instances.spawn(common), instances.spawn(common)]);
    const created = await fetch(`${a.url}/api/admin/keys`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'two-instances' }) });
    const { key } = (await created.json()) as { key: string };
    const clients = [a, b].map((g) => new OpenAI({ apiKey: key, baseURL: `${g.url}/v1`, maxRetries: 0 }));
    const results = await Promise.all([0, 1, 2].flatMap(() => clients.map((c) => chat(c))));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });
});

describe('rate limits when Redis is unreachable', () => {
  let listening: Server;
  const held = new Set<Socket>();
  let deadPort: number;
  let t: TestGateway | undefined;
  beforeAll(async () => {
    // A port nothing listens on: bound once, then closed.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    deadPort = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
    // And a "Redis" that accepts connections and never answers.
    listening = createServer((socket) => held.add(socket));
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  });
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => listening.close(resolve));
  });

  const redisUrls = () => [`redis://127.0.0.1:${deadPort}`, `redis://127.0.0.1:${(listening.address() as { port: number }).port}`];

  async function timedChat(key: string): Promise<{ status: number; code?: string; ms: number }> {
    const startedAt = Date.now();
    const res = await fetch(`${t!.baseURL}/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages }),
      signal: AbortSignal.timeout(5000),
    });
    const body = (await res.json()) as { error?: { code: string } };
    return { status: res.status, code: body.error?.code, ms: Date.now() - startedAt };
  }

  it('open (the default): requests are served within a second, counted per process, and the outage is counted', async () => {
    for (const url of redisUrls()) {
      t = await startTestGateway({ env: { REDIS_URL: url, GATEWAY_RATE_LIMIT_KEY_RPM: '2', GATEWAY_RATE_LIMIT_REDIS_PREFIX: freshPrefix() } });
      const key = await t.createKey();
      const answers = [await timedChat(key), await timedChat(key), await timedChat(key)];
      expect(answers.map((r) => r.status)).toEqual([200, 200, 429]);
      for (const r of answers) expect(r.ms).toBeLessThan(1000);
      const metrics = await (await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
      expect(Number(/gateway_rate_limit_unavailable_total (\d+)/.exec(metrics)?.[1])).toBe(3);
      await t.close();
      t = undefined;
    }
  });

  it('closed: 503 rate_limit_unavailable within a second, never a hang', async () => {
    for (const url of redisUrls()) {
      t = await startTestGateway({ env: { REDIS_URL: url, GATEWAY_RATE_LIMIT_KEY_RPM: '100', GATEWAY_RATE_LIMIT_REDIS_DOWN: 'closed', GATEWAY_RATE_LIMIT_REDIS_PREFIX: freshPrefix() } });
      const answer = await timedChat(await t.createKey());
      expect(answer).toMatchObject({ status: 503, code: 'rate_limit_unavailable' });
      expect(answer.ms).toBeLessThan(1000);
      await t.close();
      t = undefined;
    }
  });
});
