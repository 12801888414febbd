import { runKeysCommand } from '../../src/keys/keys-cli';
import { readEnv } from '../../src/config/env';
import { KeyStore } from '../../src/keys/key-store';
import { openDatabase } from '../../src/db/database';
import { freshPgliteDataDir } from '../support/pglite-template';
import { ADMIN_TOKEN, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

const METRICS_TOKEN = 'test-metrics-token-0123456789';

describe.each(TEST_DATABASES)('health, readiness and metrics (%s)', (database) => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ database, env: { GATEWAY_METRICS_TOKEN: METRICS_TOKEN } });
  });
  afterAll(() => t?.close());

  it('answers /healthz and /readyz without a key', async () => {
    const health = await fetch(`${t.url}/healthz`);
    expect(health.status).toBe(200);
    expect(health.headers.get('x-svc-request-id')).toMatch(/^req_/);
    const ready = await (await fetch(`${t.url}/readyz`)).json();
    expect(ready).toEqual({ status: 'ready', database });
  });

  it('exposes requests, latency, upstream errors and tokens by model in Prometheus format', async () => {
    const key = await t.createKey();
    const chat = (content: string) =>
      fetch(`${t.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: JSON.stringify({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content }] }),
      });
    expect((await chat('count me')).status).toBe(200);
    expect((await chat('fail [sim status=500]')).status).toBe(502);
    const text = await (await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    expect(text).toMatch(/gateway_http_requests_total\{method="POST",route="\/v1\/chat\/completions",status="200"\} [1-9]/);
    expect(text).toMatch(/gateway_http_request_duration_seconds_bucket\{le="\+Inf",route="\/v1\/chat\/completions"\} [1-9]/);
    // The failing call was tried twice (the last route is retried once).
    expect(text).toMatch(/gateway_upstream_errors_total\{provider="openai",status="500"\} 2/);
    expect(text).toMatch(/gateway_upstream_retries_total\{provider="openai"\} 1/);
    expect(text).toMatch(/gateway_tokens_total\{model="gpt-4.1-mini",dimension="output",account="acct_default"\} [1-9]/);
    expect(text).toMatch(/gateway_spend_microusd_total\{model="gpt-4.1-mini",account="acct_default"\} [1-9]/);
    expect(text).toMatch(/gateway_upstream_request_duration_seconds_count\{provider="openai",model="gpt-4.1-mini"\} [1-9]/);
    expect(text).toMatch(/^gateway_usage_records_written_total [1-9]/m);
    expect(text).toMatch(/^gateway_usage_spool_depth 0$/m);
    expect(text).toMatch(/gateway_errors_total\{code="upstream_error",status="502"\} 1/);
    expect(text).toMatch(/^gateway_streams_in_flight 0$/m);
    expect(text).toMatch(/^gateway_process_resident_memory_bytes [1-9]/m);
    expect(text).toMatch(/^gateway_nodejs_eventloop_lag_p99_seconds /m);
    // No request or key ids in any label.
    expect(text).not.toMatch(/req_[0-9a-f]{8}|key_[0-9a-f]{8}/);
  });

  it('serves /metrics on the public port only with the metrics token or the admin token', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-the-metrics-token' }, { authorization: `Bearer ${await t.createKey()}` }] as Array<Record<string, string>>) {
      const res = await fetch(`${t.url}/metrics`, { headers });
      expect(res.status).toBe(401);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('metrics_token_required');
      expect(body.error.message).toContain('GATEWAY_OPS_PORT');
    }
    const asAdmin = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(asAdmin.status).toBe(200);
    expect(await asAdmin.text()).toContain('gateway_http_requests_total');
  });
});

describe('/metrics on the public port with no token configured', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ env: { GATEWAY_ADMIN_TOKEN: '' } });
  });
  afterAll(() => t?.close());

  it('is refused to everyone, while /healthz and /readyz stay open', async () => {
    const res = await fetch(`${t.url}/metrics`, { headers: { authorization: 'Bearer anything-at-all-0123456789' } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('metrics_token_required');
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${t.url}/readyz`)).status).toBe(200);
  });
});

describe('operations on a port of their own (GATEWAY_OPS_PORT)', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ env: { GATEWAY_OPS_PORT: '0' } });
  });
  afterAll(() => t?.close());

  it('serves /readyz and /metrics there only, and /healthz on both', async () => {
    const ops = t.gateway.opsUrl!;
    expect(ops).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${ops}/readyz`)).status).toBe(200);
    expect(await (await fetch(`${ops}/metrics`)).text()).toContain('gateway_http_requests_total');
    expect((await fetch(`${ops}/healthz`)).status).toBe(200);
    for (const path of ['/metrics', '/readyz']) {
      const res = await fetch(`${t.url}${path}`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
  });
});

describe('keys from the shell', () => {
  it('creates a key that authenticates, lists it without its secret, and revokes it', async () => {
    const dataDir = await freshPgliteDataDir();
    // PORT 0: no gateway to look for, so the command opens the database itself.
    const env = readEnv({ GATEWAY_DATA_DIR: dataDir, PORT: '0' });
    const out: string[] = [];
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
    jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await runKeysCommand(['create', '--name', 'cli', '--models', 'gpt-4.1,fast'], env)).toBe(0);
      const created = JSON.parse(out.join(''));
      expect(created.key).toMatch(/^sk-gw-[A-Za-z0-9]{40}$/);
      expect(created.models).toEqual(['gpt-4.1', 'fast']);

      const db = await openDatabase({ dataDir: `${dataDir}/pglite` });
      const principal = await new KeyStore(db, 0).authenticate(created.key);
      expect(principal?.allowedModels).toEqual(new Set(['gpt-4.1', 'fast']));
      const stored = await db.prisma.apiKey.findUnique({ where: { id: created.id } });
      expect(stored!.keyHash).not.toContain(created.key);
      await db.close();

      out.length = 0;
      expect(await runKeysCommand(['list'], env)).toBe(0);
      expect(out.join('')).not.toContain(created.key);
      expect(await runKeysCommand(['revoke', created.id], env)).toBe(0);
      expect(await runKeysCommand(['create'], env)).toBe(2);
    } finally {
      write.mockRestore();
      jest.restoreAllMocks();
    }
  });
});
