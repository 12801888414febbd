import OpenAI from 'openai';
import { loadGatewayConfig } from '../../src/config/load-config';
import type { GatewayConfigInput } from '../../src/config/gateway-config-schema';
import { ADMIN_TOKEN, fetchUsageRecord, simulatorRequests, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

/** The default catalog (Tavily, Serper, Exa simulated) with the two operator backends added, and a quick time-out on Tavily. */
function searchConfig(): GatewayConfigInput {
  const base = loadGatewayConfig({}).document as GatewayConfigInput;
  // Short enough for the time-out test, long enough that an ordinary answer on a loaded machine is not cut.
  const hosted = base.search!.backends!.map((b) => (b.id === 'tavily' ? { ...b, timeout_ms: 2_500 } : b));
  return {
    ...base,
    search: {
      backends: [
        ...hosted,
        { id: 'searx', name: 'My SearXNG', type: 'searxng', simulator: true, max_results: 5 },
        { id: 'brave', name: 'Brave Search', type: 'brave', simulator: true, search_price: '0.005' },
      ],
    },
  };
}

interface SearchAnswer {
  query: string;
  results: Array<{ title: string; url: string; snippet: string; content: string | null; published_at: string | null; score: number; source: string }>;
  answer?: string | null;
  usage: { web_search_requests: number; web_search_billable_units: number };
  provider_trace: { backend: string; backend_id: string };
  route_receipt: {
    selection: string; selected_backend: string | null; chose_provider: string | null; candidates: string[];
    rejected: Array<{ backend: string; provider: string | null; reason: string }>; downgraded: boolean; fallback_count: number; decision_reason: string;
  };
  provider_payload?: any;
}

const hostOf = (url: string) => new URL(url).hostname;

describe.each(TEST_DATABASES)('POST /v1/search over five backends (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  let client: OpenAI;

  /** A search through the openai SDK's generic POST, with the response for its request id. */
  async function search(body: Record<string, unknown>, as = client) {
    const { data, response } = await as.post<SearchAnswer>('/search', { body }).withResponse();
    return { data, requestId: response.headers.get('x-svc-request-id')! };
  }

  async function failure(body: unknown, as = client) {
    return as.post('/search', { body: body as Record<string, unknown> }).then(() => { throw new Error('expected a refusal'); }, (e) => e);
  }

  async function upstreamCalls(pathPrefix: string) {
    return (await simulatorRequests(t)).requests.filter((r) => r.path.startsWith(pathPrefix));
  }

  const admin = async (path: string, method = 'GET', body?: unknown) => {
    const res = await fetch(`${t.url}${path}`, {
      method, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    t = await startTestGateway({ database, config: searchConfig() });
    key = await t.createKey({ name: 'search' });
    client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
  });
  afterAll(() => t?.close());

  it('auto picks the first configured backend, bills one unit at its price and records the receipt it returned', async () => {
    const { data, requestId } = await search({ query: 'rust async runtimes' });
    expect(data.query).toBe('rust async runtimes');
    expect(data.provider_trace).toEqual({ backend: 'tavily', backend_id: 'tavily' });
    expect(data.results.length).toBeGreaterThan(0);
    expect(data.results.length).toBeLessThanOrEqual(10);
    for (const r of data.results) {
      expect(r).toEqual({ title: expect.any(String), url: expect.stringMatching(/^https?:\/\//), snippet: expect.any(String), content: null, published_at: null, score: expect.any(Number), source: expect.any(String) });
    }
    expect(data.usage).toEqual({ web_search_requests: 1, web_search_billable_units: 1 });
    expect(data.route_receipt).toMatchObject({
      selection: 'auto', selected_backend: 'tavily', chose_provider: 'tavily', candidates: ['tavily', 'serper', 'exa', 'searx', 'brave'],
      rejected: [], downgraded: false, fallback_count: 0,
    });
    expect(data.route_receipt.decision_reason).toMatch(/tavily is first in the configured order/);
    expect(data).not.toHaveProperty('answer');
    expect(data).not.toHaveProperty('provider_payload');
    const record = (await fetchUsageRecord(t, key, requestId)).body;
    expect(record).toMatchObject({ endpoint: '/v1/search', model: 'search:auto' });
    expect(record.usage.dimensions).toEqual([{ name: 'web_search', quantity: 1, unit: 'units' }]);
    expect(record.billing.line_items).toEqual([{ dimension: 'web_search', quantity: 1, unit_microusd: 8000, amount_microusd: 8000 }]);
    expect(record.billing.amount_microusd).toBe(8000);
    expect(record.search).toEqual({ backend: 'tavily', web_search_requests: 1, web_search_billable_units: 1, route_receipt: data.route_receipt });
  });

  it('needs backend 1 for include_answer and advanced depth: two units, and only the provider\'s own answer', async () => {
    const { data, requestId } = await search({ query: 'what is a monad', include_answer: true, search_depth: 'advanced', backend: 'auto' });
    expect(data.provider_trace.backend).toBe('tavily');
    expect(typeof data.answer).toBe('string');
    expect(data.usage.web_search_billable_units).toBe(2);
    expect(data.route_receipt.candidates).toEqual(['tavily']);
    expect(data.route_receipt.rejected.map((r) => [r.backend, r.reason])).toEqual([
      ['serper', 'lacks include_answer and search_depth: advanced'], ['exa', 'lacks include_answer and search_depth: advanced'],
      ['searx', 'lacks include_answer and search_depth: advanced'], ['brave', 'lacks include_answer and search_depth: advanced'],
    ]);
    const upstream = (await upstreamCalls('/tavily/search')).at(-1)!;
    expect(upstream.body).toMatchObject({ query: 'what is a monad', search_depth: 'advanced', include_answer: true });
    const record = (await fetchUsageRecord(t, key, requestId)).body;
    expect(record.billing.line_items).toEqual([{ dimension: 'web_search', quantity: 2, unit_microusd: 8000, amount_microusd: 16000 }]);
  });

  it('refuses a named backend that lacks what the request needs, naming it, before any upstream call', async () => {
    const before = (await simulatorRequests(t)).requests.length;
    const err = await failure({ query: 'x', backend: 'serper', include_answer: true });
    expect(err.status).toBe(400);
    expect(err.error).toMatchObject({ code: 'search_backend_unsupported', param: 'backend' });
    expect(err.error.message).toContain('lacks include_answer');
    const unknown = await failure({ query: 'x', backend: 'bing' });
    expect(unknown.status).toBe(400);
    expect(unknown.error.code).toBe('search_backend_not_found');
    expect(unknown.error.message).toContain('searx (My SearXNG)');
    expect((await simulatorRequests(t)).requests.length).toBe(before);
    const record = (await fetchUsageRecord(t, key, err.headers.get('x-svc-request-id'))).body;
    expect(record.billing.amount_microusd).toBe(0);
  });

  it('prefers the backend that maps region, language and time range, and maps them to gl, hl and tbs', async () => {
    const { data } = await search({ query: 'local elections', region: 'de', language: 'de', time_range: 'week' });
    expect(data.route_receipt).toMatchObject({ selected_backend: 'serper', downgraded: false });
    expect(data.route_receipt.decision_reason).toContain('region, language, time_range preferred serper');
    expect(data.route_receipt.candidates[0]).toBe('serper');
    const upstream = (await upstreamCalls('/serper/search')).at(-1)!;
    expect(upstream.body).toMatchObject({ q: 'local elections', gl: 'de', hl: 'de', tbs: 'qdr:w', num: 10 });
  });

  it('routes news to the news endpoints, and dates its results', async () => {
    const { data } = await search({ query: 'chip exports', type: 'news', backend: 'serper' });
    expect(data.route_receipt.selection).toBe('named');
    expect((await upstreamCalls('/serper/news')).length).toBeGreaterThan(0);
    expect(data.results.some((r) => r.published_at !== null && !Number.isNaN(Date.parse(r.published_at)))).toBe(true);
    const tavily = await search({ query: 'chip exports', type: 'news', backend: 'tavily' });
    expect((await upstreamCalls('/tavily/search')).at(-1)!.body.topic).toBe('news');
    expect(tavily.data.results.length).toBeGreaterThan(0);
  });

  it('clips max_results to each backend\'s policy (hosted 10, the SearXNG here 5)', async () => {
    const hosted = await search({ query: 'many results please', max_results: 50 });
    expect(hosted.data.results.length).toBe(10);
    const searx = await search({ query: 'many results please', max_results: 50, backend: 'My SearXNG' });
    expect(searx.data.provider_trace).toEqual({ backend: 'searxng', backend_id: 'searx' });
    expect(searx.data.results.length).toBe(5);
    const few = await search({ query: 'many results please', max_results: 3, backend: 'exa' });
    expect(few.data.results.length).toBe(3);
  });

  it('records a zero web_search line item for a backend without a price', async () => {
    const { requestId } = await search({ query: 'free search', backend: 'searx' });
    const record = (await fetchUsageRecord(t, key, requestId)).body;
    expect(record.billing.line_items).toEqual([{ dimension: 'web_search', quantity: 1, unit_microusd: 0, amount_microusd: 0 }]);
    expect(record.search.web_search_billable_units).toBe(1);
  });

  it('returns raw content only when asked and given, and prefers a backend that gives it', async () => {
    const { data } = await search({ query: 'page text', include_raw_content: true, backend: 'exa' });
    expect(data.results.every((r) => typeof r.content === 'string' && r.content.length > 0)).toBe(true);
    const auto = await search({ query: 'page text', include_raw_content: true, region: 'us' });
    // Serper maps the region but gives no contents; Tavily gives contents: the one that has more of what was asked wins, ties by order.
    expect(auto.data.route_receipt.selected_backend).toBe('tavily');
    expect(auto.data.route_receipt.downgraded).toBe(true);
  });

  it('passes only the selected provider\'s options through, and its native payload when asked', async () => {
    const { data } = await search({
      query: 'options', backend: 'tavily', include_provider_payload: true,
      provider_options: { tavily: { chunks_per_source: 2 }, serper: { page: 3 } },
    });
    expect(data.provider_payload).toMatchObject({ query: 'options', results: expect.any(Array) });
    const upstream = (await upstreamCalls('/tavily/search')).at(-1)!;
    expect(upstream.body.chunks_per_source).toBe(2);
    expect(upstream.body).not.toHaveProperty('page');
  });

  it("refuses a backend's priced or unknown provider_options before any hold or call, and passes its allowed ones", async () => {
    const exaCalls = (await upstreamCalls('/exa/search')).length;
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ type: 'deep' }, 'provider_options.exa.type'],
      [{ livecrawl: 'always' }, 'provider_options.exa.livecrawl'],
      [{ contents: { summary: { query: 'main claim' } } }, 'provider_options.exa.contents'],
      [{ subpages: 5 }, 'provider_options.exa.subpages'],
      [{ numResults: 100 }, 'provider_options.exa.numResults'],
    ];
    for (const [options, param] of refusals) {
      const err = await failure({ query: 'priced options', backend: 'exa', provider_options: { exa: options } });
      expect([err.status, err.error?.code, err.error?.param]).toEqual([400, 'invalid_parameter', param]);
      expect((await fetchUsageRecord(t, key, err.headers.get('x-svc-request-id'))).body.billing.amount_microusd).toBe(0);
    }
    expect((await failure({ query: 'priced', backend: 'exa', provider_options: { exa: { type: 'deep' } } })).error.message).toMatch(/Exa bills a deep search/);
    expect((await failure({ query: 'priced', backend: 'exa', provider_options: { exa: { livecrawl: 'always' } } })).error.message).toMatch(/Exa bills page contents/);
    expect((await upstreamCalls('/exa/search')).length).toBe(exaCalls);

    // A fallback candidate's options are checked too, before the first backend is called.
    const tavilyCalls = (await upstreamCalls('/tavily/search')).length;
    const fallbackRefused = await failure({ query: 'auto', provider_options: { serper: { num: 100 } } });
    expect([fallbackRefused.status, fallbackRefused.error?.param]).toEqual([400, 'provider_options.serper.num']);
    expect((await upstreamCalls('/tavily/search')).length).toBe(tavilyCalls);

    const { data, requestId } = await search({ query: 'allowed options', backend: 'exa', provider_options: { exa: { type: 'neural', category: 'research paper' } } });
    expect(data.usage.web_search_billable_units).toBe(1);
    const upstream = (await upstreamCalls('/exa/search')).at(-1)!;
    expect(upstream.body).toMatchObject({ type: 'neural', category: 'research paper', contents: { highlights: { maxCharacters: 300 } } });
    expect(upstream.body.contents).not.toHaveProperty('summary');
    const record = (await fetchUsageRecord(t, key, requestId)).body;
    expect(record.search.web_search_billable_units).toBe(1);
  });

  it('speaks Brave and Exa when named, with their own results', async () => {
    const brave = await search({ query: 'brave results', backend: 'brave', region: 'us' });
    expect(brave.data.provider_trace.backend).toBe('brave');
    expect(brave.data.results.length).toBeGreaterThan(0);
    expect((await upstreamCalls('/brave/res/v1/web/search')).length).toBeGreaterThan(0);
    const exa = await search({ query: 'exa results', backend: 'exa' });
    expect(exa.data.provider_trace.backend).toBe('exa');
    expect(exa.data.results.every((r) => r.snippet.length > 0)).toBe(true);
  });

  it('keeps a key inside its domain allowlist: the query is restricted and stray results are dropped', async () => {
    const restricted = await t.createKey({ name: 'allowlisted', allowed_domains: ['example.com'] });
    const as = new OpenAI({ apiKey: restricted, baseURL: t.baseURL, maxRetries: 0 });
    for (const backend of ['tavily', 'serper', 'exa', 'searx', 'brave']) {
      const { data } = await search({ query: `allowlist ${backend} [sim offsite]`, backend }, as);
      expect(data.results.length).toBeGreaterThan(0);
      for (const r of data.results) expect(hostOf(r.url)).toMatch(/(^|\.)example\.com$/);
    }
    expect((await upstreamCalls('/tavily/search')).at(-1)!.body.include_domains).toEqual(['example.com']);
    const narrowed = await search({ query: 'narrow', include_domains: ['docs.example.com', 'example.org'] }, as);
    for (const r of narrowed.data.results) expect(hostOf(r.url)).toBe('docs.example.com');
    const outside = await failure({ query: 'outside', include_domains: ['example.org'] }, as);
    expect(outside.status).toBe(403);
    expect(outside.error).toMatchObject({ code: 'domain_not_allowed', param: 'include_domains' });
    // A key without a list may ask for any domain; exclusions hold too.
    const open = await search({ query: 'exclusions [sim offsite]', exclude_domains: ['example.com', 'example.invalid'] });
    for (const r of open.data.results) expect(hostOf(r.url)).not.toMatch(/example\.(com|invalid)$/);
  });

  it('applies a temporary credential\'s domain allowlist', async () => {
    const minted = await fetch(`${t.url}/api/credentials`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ allowed_domains: ['wiki.example.com'], expires_in: 600 }),
    });
    expect(minted.status).toBe(201);
    const credential = new OpenAI({ apiKey: ((await minted.json()) as { key: string }).key, baseURL: t.baseURL, maxRetries: 0 });
    const { data } = await search({ query: 'credential scope [sim offsite]', backend: 'serper' }, credential);
    expect(data.results.length).toBeGreaterThan(0);
    for (const r of data.results) expect(hostOf(r.url)).toBe('wiki.example.com');
    expect((await upstreamCalls('/serper/search')).at(-1)!.body.q).toContain('site:wiki.example.com');
  });

  it('answers bad input with the error envelope and records it uncharged', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'query'], [{ query: '' }, 'query'], [{ query: 5 }, 'query'], [{ query: 'x', max_results: 0 }, 'max_results'],
      [{ query: 'x', max_results: -3 }, 'max_results'], [{ query: 'x', max_results: 1e12 }, 'max_results'], [{ query: 'x', time_range: 'decade' }, 'time_range'],
      [{ query: 'x', type: 'images' }, 'type'], [{ query: 'x', include_domains: ['not a domain'] }, 'include_domains[0]'],
      [{ query: 'x', provider_options: { tavily: 3 } }, 'provider_options.tavily'], [{ query: 'x'.repeat(2001) }, 'query'],
    ];
    for (const [body, param] of cases) {
      const err = await failure(body);
      expect([err.status, err.error?.code, err.error?.param]).toEqual([400, 'invalid_parameter', param]);
      const record = (await fetchUsageRecord(t, key, err.headers.get('x-svc-request-id'))).body;
      expect(record.billing.amount_microusd).toBe(0);
    }
    const unauthorized = await fetch(`${t.baseURL}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"x"}' });
    expect(unauthorized.status).toBe(401);
    const notJson = await fetch(`${t.baseURL}/search`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"query":' });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { error: { code: string } }).error.code).toBe('invalid_json');
  });

  it('exposes the search usage of a record over GraphQL', async () => {
    const { requestId } = await search({ query: 'graphql view' });
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: `query($id: ID!) { usageRecord(id: $id) { endpoint search { backend webSearchRequests webSearchBillableUnits routeReceipt { selection selectedBackend choseProvider candidates rejected { backend reason } downgraded fallbackCount decisionReason } } billing { lineItems { dimension amountMicrousd } } } }`, variables: { id: requestId } }),
    });
    const body = (await res.json()) as any;
    expect(body.errors).toBeUndefined();
    expect(body.data.usageRecord).toMatchObject({
      endpoint: '/v1/search',
      search: { backend: 'tavily', webSearchRequests: 1, webSearchBillableUnits: 1, routeReceipt: { selection: 'auto', selectedBackend: 'tavily', fallbackCount: 0 } },
      billing: { lineItems: [{ dimension: 'web_search', amountMicrousd: 8000 }] },
    });
  });

  it('holds a prepaid account\'s worst case (two units at the dearest candidate) and settles what the backend billed', async () => {
    const accountId = (await admin('/api/admin/accounts', 'POST', { name: 'search-wallet' })).body.id as string;
    const made = await admin('/api/admin/keys', 'POST', { name: 'search-wallet-key', account_id: accountId });
    const as = new OpenAI({ apiKey: made.body.key, baseURL: t.baseURL, maxRetries: 0 });
    await admin(`/api/admin/accounts/${accountId}/wallet/top-ups`, 'POST', { amount_microusd: 10_000 });
    const before = (await simulatorRequests(t)).requests.length;
    const refused = await failure({ query: 'too dear' }, as);
    expect(refused.status).toBe(402);
    expect(refused.error).toMatchObject({ code: 'insufficient_balance', details: { hold_microusd: 16_000 } });
    expect((await simulatorRequests(t)).requests.length).toBe(before);
    // Serper's worst case (two of its units) fits.
    const cheap = await search({ query: 'cheap enough', backend: 'serper' }, as);
    expect(cheap.data.usage.web_search_billable_units).toBe(1);
    expect((await admin(`/api/admin/accounts/${accountId}/wallet`)).body).toMatchObject({ balance_microusd: 9_000, held_microusd: 0 });
    const report = await admin(`/api/admin/reconcile?account_id=${accountId}`);
    expect(report.body.ok).toBe(true);
  });

  it('lets the operator change a key\'s domain allowlist, in force at once', async () => {
    const made = await admin('/api/admin/keys', 'POST', { name: 'patched' });
    expect(made.body.allowed_domains).toEqual([]);
    const as = new OpenAI({ apiKey: made.body.key, baseURL: t.baseURL, maxRetries: 0 });
    await search({ query: 'warm the key cache' }, as);
    const patched = await admin(`/api/admin/keys/${made.body.id}`, 'PATCH', { allowed_domains: ['Blog.Example.NET'] });
    expect(patched.status).toBe(200);
    expect(patched.body.allowed_domains).toEqual(['blog.example.net']);
    const { data } = await search({ query: 'patched scope', backend: 'exa' }, as);
    expect(data.results.length).toBeGreaterThan(0);
    for (const r of data.results) expect(hostOf(r.url)).toBe('blog.example.net');
    const bad = await admin(`/api/admin/keys/${made.body.id}`, 'PATCH', { allowed_domains: ['not a domain'] });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'invalid_parameter']);
    expect((await admin('/api/admin/keys/key_missing', 'PATCH', { allowed_domains: [] })).status).toBe(404);
  });

  it('falls back to the next capable backend when the first fails, billing only the one that answered', async () => {
    const { data, requestId } = await search({ query: 'fallback please [sim on=tavily status=503]' });
    expect(data.route_receipt).toMatchObject({ selected_backend: 'serper', chose_provider: 'serper', fallback_count: 1 });
    expect(data.route_receipt.rejected).toEqual([{ backend: 'tavily', provider: 'tavily', reason: expect.stringMatching(/^failed: /) }]);
    const record = (await fetchUsageRecord(t, key, requestId)).body;
    expect(record.billing.line_items).toEqual([{ dimension: 'web_search', quantity: 1, unit_microusd: 1000, amount_microusd: 1000 }]);
    expect(record.search.route_receipt).toEqual(data.route_receipt);
  });

  it('falls back on a time-out of the first backend', async () => {
    const started = Date.now();
    const { data } = await search({ query: 'slow backend [sim on=tavily latency=60000]' });
    // Tavily's 2.5 s time-out, then Serper: nowhere near the minute the slow backend would take.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(data.route_receipt).toMatchObject({ selected_backend: 'serper', fallback_count: 1 });
    expect(data.route_receipt.rejected[0]!.reason).toMatch(/upstream_timeout/);
  });

  it('marks a backend that failed twice in a row unhealthy: auto skips it and says why', async () => {
    const { data } = await search({ query: 'after the failures' });
    expect(data.route_receipt.selected_backend).toBe('serper');
    expect(data.route_receipt.candidates).not.toContain('tavily');
    expect(data.route_receipt.rejected).toEqual([{ backend: 'tavily', provider: 'tavily', reason: expect.stringMatching(/^unhealthy: 2 failures in a row/) }]);
    // Named, it is still tried: the client asked for it.
    expect((await search({ query: 'named anyway', backend: 'tavily' })).data.provider_trace.backend).toBe('tavily');
  });

  it('answers the most telling failure when every backend fails, and records the receipt uncharged', async () => {
    const err = await failure({ query: 'everything down [sim status=502]' });
    expect(err.status).toBe(502);
    const record = (await fetchUsageRecord(t, key, err.headers.get('x-svc-request-id'))).body;
    expect(record.billing.amount_microusd).toBe(0);
    expect(record.search).toMatchObject({ backend: null, web_search_requests: 0, web_search_billable_units: 0 });
    expect(record.search.route_receipt).toMatchObject({ selected_backend: null, fallback_count: 4 });
    expect(record.search.route_receipt.rejected.filter((r: { reason: string }) => r.reason.startsWith('failed: '))).toHaveLength(5);
  });
});
