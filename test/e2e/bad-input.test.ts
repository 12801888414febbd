import { gzipSync } from 'node:zlib';
import { readUntil } from '../support/eventually';
import { simulatorRequests, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

describe.each(TEST_DATABASES)('bad input on every route answers with the envelope (%s)', (database) => {
  let t: TestGateway;
  let key: string;

  beforeAll(async () => {
    t = await startTestGateway({ database, env: { GATEWAY_MAX_BODY_BYTES: String(64 * 1024), GATEWAY_MAX_CONCURRENCY: '4' } });
    key = await t.createKey({ name: 'bad-input' });
  });
  afterAll(() => t?.close());

  async function call(method: string, path: string, opts: { body?: string; auth?: string | null; contentType?: string } = {}): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (opts.auth !== null) headers.authorization = `Bearer ${opts.auth ?? key}`;
    if (opts.body !== undefined) headers['content-type'] = opts.contentType ?? 'application/json';
    const res = await fetch(`${t.url}${path}`, { method, headers, body: opts.body });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // left as text: the assertions below will say so
    }
    return { status: res.status, headers: res.headers, body };
  }

  function expectEnvelope(a: Answer, status: number, code: string, param?: string | null) {
    expect(a.status).toBe(status);
    const requestId = a.headers.get('x-svc-request-id');
    expect(requestId).toMatch(/^req_/);
    expect(a.body).toEqual({
      error: expect.objectContaining({ message: expect.any(String), type: expect.any(String), code, request_id: requestId, param: param === undefined ? expect.anything() : param }),
    });
    if (param === undefined) expect(a.body.error).toHaveProperty('param');
  }

  const chat = (body: unknown) => call('POST', '/v1/chat/completions', { body: JSON.stringify(body) });
  const msg = [{ role: 'user', content: 'hi' }];

  async function recordCount(): Promise<number> {
    return t.gateway.db.prisma.usageRecord.count({ where: { keyId: (await t.gateway.services.keys.authenticate(key))!.keyId } });
  }

  it('unknown paths and wrong methods', async () => {
    expectEnvelope(await call('GET', '/v1/nope'), 404, 'not_found', null);
    expectEnvelope(await call('GET', '/nothing/here', { auth: null }), 404, 'not_found', null);
    const wrong = await call('GET', '/v1/chat/completions');
    expectEnvelope(wrong, 405, 'method_not_allowed', null);
    expect(wrong.headers.get('allow')).toBe('POST');
    expectEnvelope(await call('DELETE', '/v1/models'), 405, 'method_not_allowed', null);
    expectEnvelope(await call('PUT', '/api/usage/requests/x'), 405, 'method_not_allowed', null);
  });

  it('missing and invalid keys, on every authenticated route', async () => {
    for (const [method, path] of [['GET', '/v1/models'], ['POST', '/v1/chat/completions'], ['GET', '/api/models/catalog'], ['GET', '/api/usage/requests/req_x']]) {
      expectEnvelope(await call(method, path, { auth: null, body: method === 'POST' ? '{}' : undefined }), 401, 'missing_api_key', null);
      expectEnvelope(await call(method, path, { auth: 'sk-gw-not-a-key', body: method === 'POST' ? '{}' : undefined }), 401, 'invalid_api_key', null);
    }
    const basic = await fetch(`${t.url}/v1/models`, { headers: { authorization: 'Basic abc' } });
    expect(basic.status).toBe(401);
  });

  it('admin routes need the admin token', async () => {
    expectEnvelope(await call('POST', '/api/admin/keys', { body: '{"name":"x"}', auth: null }), 401, 'invalid_admin_token', null);
    expectEnvelope(await call('POST', '/api/admin/keys', { body: '{"name":"x"}', auth: key }), 401, 'invalid_admin_token', null);
    const noName = await call('POST', '/api/admin/keys', { body: '{}', auth: 'test-admin-token-0123456789' });
    expectEnvelope(noName, 400, 'invalid_parameter', 'name');
    const past = await call('POST', '/api/admin/keys', { body: '{"name":"x","expires_at":"2001-01-01T00:00:00Z"}', auth: 'test-admin-token-0123456789' });
    expectEnvelope(past, 400, 'invalid_parameter', 'expires_at');
  });

  it('malformed, non-object and oversized bodies', async () => {
    const before = await recordCount();
    expectEnvelope(await call('POST', '/v1/chat/completions', { body: '{"model": "gpt-4.1-mini", "messages": [' }), 400, 'invalid_json', null);
    expectEnvelope(await call('POST', '/v1/chat/completions', { body: '[1,2]' }), 400, 'invalid_parameter', null);
    expectEnvelope(await call('POST', '/v1/chat/completions', { body: '"text"' }), 400, 'invalid_parameter', null);
    const big = JSON.stringify({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'x'.repeat(70 * 1024) }] });
    expectEnvelope(await call('POST', '/v1/chat/completions', { body: big }), 413, 'request_body_too_large', null);
    // Each failed call that carried a valid key has exactly one uncharged record.
    expect(await recordCount()).toBe(before + 4);
  });

  it('compressed bodies are read, other encodings and charsets refused, each request recorded once', async () => {
    const before = await recordCount();
    const body = JSON.stringify({ model: 'gpt-4.1-mini', messages: msg });
    const send = (payload: Buffer | string, headers: Record<string, string>) =>
      fetch(`${t.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, body: payload });
    const gzipped = await send(gzipSync(body), { 'content-encoding': 'gzip' });
    expect(gzipped.status).toBe(200);
    expect(((await gzipped.json()) as any).object).toBe('chat.completion');
    const requestId = gzipped.headers.get('x-svc-request-id')!;
    const record = await fetch(`${t.url}/api/usage/requests/${requestId}`, { headers: { authorization: `Bearer ${key}` } });
    expect(record.status).toBe(200);

    const latin1 = await send(body, { 'content-type': 'application/json; charset=latin1' });
    expect(latin1.status).toBe(415);
    expect(((await latin1.json()) as any).error.code).toBe('unsupported_media_type');
    const compress = await send(body, { 'content-encoding': 'compress' });
    expect(compress.status).toBe(415);
    await compress.text();
    const broken = await send('not gzip', { 'content-encoding': 'gzip' });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as any).error.code).toBe('invalid_body_encoding');
    // A zip bomb is measured after inflating: 1 MB of spaces, far over the 64 KiB limit, compresses to about 1 KB.
    const bomb = await send(gzipSync(`{"model": "gpt-4.1-mini", "x": "${' '.repeat(1024 * 1024)}"}`), { 'content-encoding': 'gzip' });
    expect(bomb.status).toBe(413);
    expect(((await bomb.json()) as any).error.code).toBe('request_body_too_large');
    expect(await recordCount()).toBe(before + 5);
  });

  it('validation errors name the field', async () => {
    expectEnvelope(await chat({ messages: msg }), 400, 'invalid_parameter', 'model');
    expectEnvelope(await chat({ model: 'gpt-4.1-mini' }), 400, 'invalid_parameter', 'messages');
    expectEnvelope(await chat({ model: 'gpt-4.1-mini', messages: [] }), 400, 'invalid_parameter', 'messages');
    expectEnvelope(await chat({ model: 'gpt-4.1-mini', messages: [{ role: 'robot', content: 'x' }] }), 400, 'invalid_parameter', 'messages[0].role');
    expectEnvelope(await chat({ model: 'gpt-4.1-mini', messages: [{ role: 'tool', content: 'x' }] }), 400, 'invalid_parameter', 'messages[0].tool_call_id');
    expectEnvelope(await chat({ model: 'gpt-4.1-mini', messages: msg, temperature: 5 }), 400, 'invalid_parameter', 'temperature');
    expectEnvelope(await chat({ model: 'gpt-4.1-mini', messages: msg, max_tokens: -1 }), 400, 'invalid_parameter', 'max_tokens');
    expectEnvelope(await chat({ model: 'gpt-4.1-mini', messages: msg, max_tokens: 1_000_000 }), 400, 'max_tokens_out_of_range', 'max_tokens');
    expectEnvelope(await chat({ model: 'gpt-4.1-mini', messages: msg, stream: 'yes' }), 400, 'invalid_parameter', 'stream');
    expectEnvelope(
      await chat({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'http://insecure.example/x.png' } }] }] }),
      400, 'invalid_parameter', 'messages[0].content[0].image_url.url',
    );
    expectEnvelope(
      await chat({ model: 'gpt-4.1-mini', messages: msg, tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: { type: 'function', function: { name: 'g' } } }),
      400, 'invalid_parameter', 'tool_choice.function.name',
    );
  });

  it('unknown, forbidden and wrong-endpoint models', async () => {
    expectEnvelope(await chat({ model: 'gpt-9', messages: msg }), 404, 'model_not_found', 'model');
    expectEnvelope(await chat({ model: 'text-embedding-3-small', messages: msg }), 400, 'model_not_supported_on_endpoint', 'model');
    const limited = await t.createKey({ name: 'limited', models: ['gpt-4.1'] });
    const denied = await call('POST', '/v1/chat/completions', { auth: limited, body: JSON.stringify({ model: 'gpt-4.1-mini', messages: msg }) });
    expectEnvelope(denied, 403, 'model_not_allowed', 'model');
    const listed = await call('GET', '/v1/models', { auth: limited });
    expect(listed.body.data.map((m: any) => m.id)).toEqual(['gpt-4.1']);
    const catalog = await call('GET', '/api/models/catalog', { auth: limited });
    expect(catalog.body.data.map((m: any) => m.id)).toEqual(['gpt-4.1']);
    expectEnvelope(await call('GET', '/v1/models/gpt-4.1-mini', { auth: limited }), 404, 'model_not_found', 'model');
  });

  it('an expired or revoked key is refused', async () => {
    const res = await fetch(`${t.url}/api/admin/keys`, {
      method: 'POST',
      headers: { authorization: 'Bearer test-admin-token-0123456789', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'short-lived', expires_at: new Date(Date.now() + 1500).toISOString() }),
    });
    const created = (await res.json()) as { id: string; key: string; expires_at: string };
    expect((await call('GET', '/v1/models', { auth: created.key })).status).toBe(200);
    // The key is checked against the clock on every request: the moment to ask again is the first one past its expiry.
    const expiry = Date.parse(created.expires_at);
    while (Date.now() <= expiry) await new Promise((r) => setTimeout(r, expiry - Date.now() + 1));
    expectEnvelope(await call('GET', '/v1/models', { auth: created.key }), 401, 'invalid_api_key', null);

    const other = await t.createKey({ name: 'to-revoke' });
    const list: any = await (await fetch(`${t.url}/api/admin/keys`, { headers: { authorization: 'Bearer test-admin-token-0123456789' } })).json();
    const id = list.data.find((k: any) => k.name === 'to-revoke').id;
    expect(list.data.every((k: any) => !('key' in k))).toBe(true);
    const revoked = await fetch(`${t.url}/api/admin/keys/${id}`, { method: 'DELETE', headers: { authorization: 'Bearer test-admin-token-0123456789' } });
    expect(revoked.status).toBe(200);
    expectEnvelope(await call('GET', '/v1/models', { auth: other }), 401, 'invalid_api_key', null);
  });

  it('sheds load past the concurrency limit with 503 and Retry-After', async () => {
    const inFlight = async () => (await t.gateway.services.metrics.inFlight.get()).values[0]?.value ?? 0;
    const hangingUpstream = async () => (await simulatorRequests(t)).requests.filter((r) => JSON.stringify(r.body).includes('wait [sim hang=1]')).length;
    const hangingBefore = await hangingUpstream();
    const hanging = Array.from({ length: 4 }, () => {
      const controller = new AbortController();
      const done = fetch(`${t.url}/v1/chat/completions`, {
        method: 'POST',
        signal: controller.signal,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'wait [sim hang=1]' }] }),
      }).catch(() => undefined);
      return { controller, done };
    });
    // All four hold their places once each has reached the upstream.
    await readUntil(hangingUpstream, (n) => n === hangingBefore + 4, 'the four hanging calls to reach the upstream', 10_000);
    const shed = await chat({ model: 'gpt-4.1-mini', messages: msg });
    expectEnvelope(shed, 503, 'gateway_overloaded', null);
    expect(shed.headers.get('retry-after')).toBe('1');
    for (const h of hanging) h.controller.abort();
    await Promise.all(hanging.map((h) => h.done));
    await readUntil(inFlight, (n) => n === 0, 'the places of the clients that left to be free', 10_000);
    expect((await chat({ model: 'gpt-4.1-mini', messages: msg })).status).toBe(200);
  });

  it('upstream failures map to clear statuses', async () => {
    const say = (directive: string) => chat({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: `x ${directive}` }] });
    expectEnvelope(await say('[sim status=500]'), 502, 'upstream_error', null);
    expectEnvelope(await say('[sim status=401]'), 502, 'upstream_auth_failed', null);
    expectEnvelope(await say('[sim status=503]'), 503, 'upstream_overloaded', null);
    const bad = await say('[sim status=400 code=unsupported_parameter]');
    expectEnvelope(bad, 400, 'unsupported_parameter', null);
  });

  it('usage records stay exact across all of the above: one per request, none charged when failed', async () => {
    const principal = (await t.gateway.services.keys.authenticate(key))!;
    const rows = await t.gateway.db.prisma.usageRecord.findMany({ where: { keyId: principal.keyId } });
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    for (const row of rows.filter((r) => r.statusCode >= 400 && r.statusCode !== 499)) expect(row.amountMicrousd).toBe(0n);
    expect(rows.filter((r) => r.statusCode === 200).every((r) => r.amountMicrousd > 0n)).toBe(true);
  });
});

describe('an upstream out of quota is the operator\'s problem', () => {
  let t: TestGateway;
  afterAll(() => t?.close());

  it('answers 502 upstream_quota_exhausted, not a rate limit the client would retry', async () => {
    t = await startTestGateway();
    const key = await t.createKey();
    const res = await fetch(`${t.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'x [sim status=429 code=insufficient_quota]' }] }),
    });
    expect(res.status).toBe(502);
    expect(((await res.json()) as any).error.code).toBe('upstream_quota_exhausted');
  });

  it('a path with malformed percent-encoding is a 400 in the envelope', async () => {
    const key = await t.createKey();
    const res = await fetch(`${t.url}/api/usage/requests/%zz`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.code).toBe('invalid_request');
  });
});
