import { type SearchProtocol, parseDirectives } from '../src/directives';
import { useSimulator } from './simulator-test-kit';

const simulator = useSimulator();

type Json = { [field: string]: any };

function postJsonTo(path: string, body: unknown, headers: Record<string, string>, signal?: AbortSignal): Promise<Response> {
  return fetch(`${simulator.current.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal: signal ?? null });
}

function getWith(path: string, params: Record<string, string>, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
  return fetch(`${simulator.current.url}${path}?${new URLSearchParams(params)}`, { headers, signal: signal ?? null });
}

const TAVILY_KEY = { authorization: 'Bearer tvly-test' };
const SERPER_KEY = { 'x-api-key': 'serper-test' };
const EXA_KEY = { 'x-api-key': 'exa-test' };
const BRAVE_KEY = { 'x-subscription-token': 'brave-test' };

const tavily = (body: Json, headers = TAVILY_KEY, signal?: AbortSignal) => postJsonTo('/tavily/search', body, headers, signal);
const serper = (type: 'search' | 'news', body: Json, headers = SERPER_KEY, signal?: AbortSignal) => postJsonTo(`/serper/${type}`, body, headers, signal);
const exa = (body: Json, headers = EXA_KEY, signal?: AbortSignal) => postJsonTo('/exa/search', body, headers, signal);
const searxng = (params: Record<string, string>, signal?: AbortSignal) => getWith('/searxng/search', params, {}, signal);
const brave = (endpoint: 'web' | 'news', params: Record<string, string>, headers = BRAVE_KEY, signal?: AbortSignal) => getWith(`/brave/res/v1/${endpoint}/search`, params, headers, signal);

/** The same web search on each protocol, as its simplest request, with the result URLs it answered. */
const WEB_SEARCH: { [protocol in SearchProtocol]: (query: string, signal?: AbortSignal) => Promise<{ status: number; urls: string[] }> } = {
  tavily: (query, signal) => urlsOf(tavily({ query, max_results: 8 }, TAVILY_KEY, signal), (body) => body.results.map((r: Json) => r.url)),
  serper: (query, signal) => urlsOf(serper('search', { q: query, num: 8 }, SERPER_KEY, signal), (body) => body.organic.map((r: Json) => r.link)),
  exa: (query, signal) => urlsOf(exa({ query, numResults: 8 }, EXA_KEY, signal), (body) => body.results.map((r: Json) => r.url)),
  searxng: (query, signal) => urlsOf(searxng({ q: query, format: 'json' }, signal), (body) => body.results.map((r: Json) => r.url)),
  brave: (query, signal) => urlsOf(brave('web', { q: query, count: '8' }, BRAVE_KEY, signal), (body) => body.web.results.map((r: Json) => r.url)),
};
const PROTOCOLS = Object.keys(WEB_SEARCH) as SearchProtocol[];

async function urlsOf(pending: Promise<Response>, pick: (body: Json) => string[]): Promise<{ status: number; urls: string[] }> {
  const response = await pending;
  const body = (await response.json()) as Json;
  return { status: response.status, urls: response.status === 200 ? pick(body) : [] };
}

const hostOf = (url: string) => new URL(url).hostname;
const isUnder = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

describe('search directives', () => {
  it('reads on=<protocol> and offsite, and refuses an unknown protocol', () => {
    expect(parseDirectives('x [sim on=Exa status=503 offsite]')).toEqual({ ok: true, directives: { on: 'exa', status: 503, offsite: true } });
    expect(parseDirectives('x [sim on=bing]')).toEqual({ ok: false, message: expect.stringContaining('expects one of tavily, serper, exa, searxng, brave') });
  });
});

describe('Tavily', () => {
  it('answers a search in Tavily\'s shape: 5 results by default, no answer, raw content or usage unless asked', async () => {
    const response = await tavily({ query: 'rust async runtimes' });

    expect(response.status).toBe(200);
    const body = (await response.json()) as Json;
    expect(Object.keys(body)).toEqual(['query', 'answer', 'follow_up_questions', 'images', 'results', 'response_time', 'request_id']);
    expect(body).toMatchObject({ query: 'rust async runtimes', answer: null, follow_up_questions: null, images: [] });
    expect(body.results).toHaveLength(5);
    for (const result of body.results) {
      expect(Object.keys(result)).toEqual(['title', 'url', 'content', 'score', 'raw_content']);
      expect(result).toMatchObject({ title: expect.any(String), url: expect.stringMatching(/^https:\/\//), content: expect.stringContaining('Rust async runtimes'), raw_content: null });
    }
    expect(body.results[0].url).toContain('/rust-async-runtimes');
    expect(typeof body.response_time).toBe('number');
  });

  it('writes an answer, page text and credits when asked: 2 credits for an advanced search', async () => {
    const body = (await (await tavily({ query: 'rust async', search_depth: 'advanced', include_answer: 'advanced', include_raw_content: 'text', include_usage: true, include_favicon: true, max_results: 2 })).json()) as Json;

    expect(body.answer).toEqual(expect.stringContaining('Rust async'));
    expect(body.usage).toEqual({ credits: 2 });
    expect(body.results).toHaveLength(2);
    expect(body.results[0].raw_content).toEqual(expect.stringContaining('Rust async'));
    expect(body.results[0].favicon).toMatch(/favicon\.ico$/);
    expect(((await (await tavily({ query: 'rust async', include_usage: true })).json()) as Json).usage).toEqual({ credits: 1 });
  });

  it('reads a null option as unset, as SDKs send one', async () => {
    const response = await tavily({ query: 'x', search_depth: null, include_domains: null, time_range: null });

    expect(response.status).toBe(200);
  });

  it('needs a bearer key', async () => {
    const response = await tavily({ query: 'x' }, {} as typeof TAVILY_KEY);

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ detail: { error: 'Unauthorized: missing or invalid API key.' } });
  });

  it.each([
    ['a missing query', {}],
    ['max_results over 20', { query: 'x', max_results: 21 }],
    ['an unknown search_depth', { query: 'x', search_depth: 'deep' }],
    ['an unknown time_range', { query: 'x', time_range: 'decade' }],
    ['a malformed directive', { query: 'x [sim lateny=5]' }],
  ])('refuses %s with a 400 in Tavily\'s error shape', async (_name, body) => {
    const response = await tavily(body);

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ detail: { error: expect.any(String) } });
  });

  it('dates news results, inside the time range', async () => {
    const body = (await (await tavily({ query: 'election results', topic: 'news', time_range: 'week' })).json()) as Json;

    for (const result of body.results) {
      const published = Date.parse(result.published_date);
      expect(published).toBeGreaterThan(Date.now() - 7 * 86_400_000 - 1000);
      expect(published).toBeLessThanOrEqual(Date.now());
    }
  });

  it('honours include_domains and exclude_domains, subdomains included', async () => {
    const included = (await (await tavily({ query: 'gardening', max_results: 10, include_domains: ['example.com'] })).json()) as Json;
    const excluded = (await (await tavily({ query: 'gardening', max_results: 10, exclude_domains: ['example.com', 'blog.example.net'] })).json()) as Json;

    expect(included.results.length).toBe(10);
    expect(included.results.every((r: Json) => isUnder(hostOf(r.url), 'example.com'))).toBe(true);
    expect(excluded.results.length).toBe(10);
    expect(excluded.results.some((r: Json) => isUnder(hostOf(r.url), 'example.com') || hostOf(r.url) === 'blog.example.net')).toBe(false);
  });

  it('extracts pages, with the ones it cannot fetch in failed_results', async () => {
    const response = await postJsonTo('/tavily/extract', { urls: ['https://docs.example.com/guides/rust-async', 'https://nowhere.example.invalid/x'], include_usage: true }, TAVILY_KEY);

    const body = (await response.json()) as Json;
    expect(response.status).toBe(200);
    expect(body.results).toEqual([{ url: 'https://docs.example.com/guides/rust-async', raw_content: expect.stringContaining('# Rust async') }]);
    expect(body.failed_results).toEqual([{ url: 'https://nowhere.example.invalid/x', error: expect.any(String) }]);
    expect(body.usage).toEqual({ credits: 1 });
  });
});

describe('Serper', () => {
  it('answers /search with searchParameters, organic results, related searches and a credit', async () => {
    const response = await serper('search', { q: 'best hiking boots', num: 3 });

    expect(response.status).toBe(200);
    const body = (await response.json()) as Json;
    expect(body.searchParameters).toEqual({ q: 'best hiking boots', gl: 'us', hl: 'en', type: 'search', num: 3, engine: 'google' });
    expect(body.organic.map((r: Json) => r.position)).toEqual([1, 2, 3]);
    for (const result of body.organic) expect(result).toMatchObject({ title: expect.any(String), link: expect.any(String), snippet: expect.any(String) });
    expect(body.relatedSearches[0]).toEqual({ query: expect.stringContaining('best hiking boots') });
    expect(body.credits).toBe(1);
  });

  it('answers /news with dated news from named sources', async () => {
    const body = (await (await serper('news', { q: 'central bank rates', tbs: 'qdr:d' })).json()) as Json;

    expect(body.searchParameters).toMatchObject({ type: 'news', tbs: 'qdr:d' });
    expect(body.news).toHaveLength(10);
    for (const item of body.news) {
      expect(item).toMatchObject({ title: expect.any(String), link: expect.any(String), snippet: expect.any(String), source: expect.any(String), position: expect.any(Number) });
      expect(item.date).toMatch(/^\d+ (minute|hour)s? ago$/);
    }
  });

  it('gives page two results of its own', async () => {
    const first = (await (await serper('search', { q: 'tea', num: 5 })).json()) as Json;
    const second = (await (await serper('search', { q: 'tea', num: 5, page: 2 })).json()) as Json;

    const firstLinks = new Set(first.organic.map((r: Json) => r.link));
    expect(second.organic.some((r: Json) => firstLinks.has(r.link))).toBe(false);
  });

  it('needs an X-API-KEY: 403 otherwise', async () => {
    const response = await serper('search', { q: 'x' }, { 'x-api-key': '' });

    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ message: 'Unauthorized.', statusCode: 403 });
  });

  it.each([
    ['num over 100', { q: 'x', num: 101 }],
    ['an unknown tbs', { q: 'x', tbs: 'qdr:decade' }],
    ['a missing q', {}],
  ])('refuses %s with a 400 in Serper\'s error shape', async (_name, body) => {
    const response = await serper('search', body);

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: expect.any(String), statusCode: 400 });
  });
});

describe('Exa', () => {
  it('answers a search in camelCase, with text only when contents asks for it', async () => {
    const plain = (await (await exa({ query: 'vector databases' })).json()) as Json;
    const withText = (await (await exa({ query: 'vector databases', numResults: 2, contents: { text: { maxCharacters: 50 }, highlights: true } })).json()) as Json;

    expect(plain).toMatchObject({ requestId: expect.stringMatching(/^[0-9a-f]{32}$/), resolvedSearchType: 'neural', searchTime: expect.any(Number) });
    expect(plain.results).toHaveLength(10);
    expect(plain.results[0]).toMatchObject({ id: expect.any(String), url: expect.any(String), title: expect.any(String), score: expect.any(Number) });
    expect(plain.results[0]).not.toHaveProperty('text');
    expect(plain.costDollars).toEqual({ total: 0.005, search: { neural: 0.005 } });
    expect(withText.results[0].text.length).toBeLessThanOrEqual(50);
    expect(withText.results[0].highlights.length).toBe(withText.results[0].highlightScores.length);
    expect(withText.costDollars).toEqual({ total: 0.009, search: { neural: 0.005 }, contents: { text: 0.002, highlights: 0.002 } });
  });

  it('needs an x-api-key', async () => {
    const response = await exa({ query: 'x' }, {} as typeof EXA_KEY);

    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'Invalid API key' });
  });

  it.each([
    ['numResults over 100', { query: 'x', numResults: 101 }],
    ['an unknown type', { query: 'x', type: 'psychic' }],
    ['a missing query', {}],
  ])('refuses %s with a 400', async (_name, body) => {
    const response = await exa(body);

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: expect.any(String) });
  });

  it('dates news results, after startPublishedDate', async () => {
    const since = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const body = (await (await exa({ query: 'chip exports', category: 'news', startPublishedDate: since })).json()) as Json;

    for (const result of body.results) expect(Date.parse(result.publishedDate)).toBeGreaterThanOrEqual(Date.parse(since) - 1000);
  });

  it('honours includeDomains and excludeDomains', async () => {
    const included = (await (await exa({ query: 'birds', includeDomains: ['www.example.edu', 'acme.org'] })).json()) as Json;
    const excluded = (await (await exa({ query: 'birds', excludeDomains: ['example.com'] })).json()) as Json;

    expect(new Set(included.results.map((r: Json) => hostOf(r.url)))).toEqual(new Set(['www.example.edu', 'acme.org']));
    expect(excluded.results.some((r: Json) => isUnder(hostOf(r.url), 'example.com'))).toBe(false);
  });

  it('answers /contents with the text of each URL', async () => {
    const response = await postJsonTo('/exa/contents', { urls: ['https://wiki.example.com/wiki/owls'] }, EXA_KEY);

    const body = (await response.json()) as Json;
    expect(body.results).toEqual([expect.objectContaining({ id: 'https://wiki.example.com/wiki/owls', text: expect.stringContaining('Owls') })]);
    expect(body.statuses).toEqual([{ id: 'https://wiki.example.com/wiki/owls', status: 'success' }]);
  });
});

describe('SearXNG', () => {
  it('answers GET /search?format=json in SearXNG\'s shape', async () => {
    const response = await searxng({ q: 'sourdough starter', format: 'json' });

    expect(response.status).toBe(200);
    const body = (await response.json()) as Json;
    expect(body).toMatchObject({ query: 'sourdough starter', number_of_results: expect.any(Number), answers: [], corrections: [], infoboxes: [], suggestions: [], unresponsive_engines: [] });
    expect(body.results).toHaveLength(10);
    const [first] = body.results;
    expect(first).toMatchObject({ url: expect.any(String), title: expect.any(String), content: expect.any(String), engine: expect.any(String), score: expect.any(Number), category: 'general', template: 'default.html' });
    expect(first.engines).toContain(first.engine);
    expect(first.parsed_url).toEqual(['https', hostOf(first.url), new URL(first.url).pathname, '', '', '']);
  });

  it('takes a POSTed form too', async () => {
    const response = await fetch(`${simulator.current.url}/searxng/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ q: 'sourdough starter', format: 'json', pageno: '2' }).toString(),
    });

    expect(response.status).toBe(200);
    const body = (await response.json()) as Json;
    expect(body.query).toBe('sourdough starter');
    expect(body.results[0].url).toMatch(/-11$/);
  });

  it.each([
    ['no format', { q: 'x' }],
    ['format=html', { q: 'x', format: 'html' }],
    ['format=csv', { q: 'x', format: 'csv' }],
  ])('refuses %s with an HTML 403, the JSON format being the only one enabled', async (_name, params) => {
    const response = await searxng(params);

    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain('403 Forbidden');
  });

  it.each([
    ['an unknown time_range', { q: 'x', format: 'json', time_range: 'decade' }],
    ['a missing q', { format: 'json' }],
    ['a pageno of 0', { q: 'x', format: 'json', pageno: '0' }],
  ])('refuses %s with a JSON 400', async (_name, params) => {
    const response = await searxng(params);

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: expect.any(String) });
  });

  it('dates the results of the news category', async () => {
    const body = (await (await searxng({ q: 'storm warning', format: 'json', categories: 'news', time_range: 'day' })).json()) as Json;

    for (const result of body.results) {
      expect(result.category).toBe('news');
      expect(Date.parse(`${result.publishedDate}Z`)).toBeGreaterThan(Date.now() - 86_400_000 - 1000);
    }
  });
});

describe('Brave', () => {
  it('answers a web search in Brave\'s shape, descriptions decorated', async () => {
    const response = await brave('web', { q: 'solar panels', count: '4', extra_snippets: 'true' });

    expect(response.status).toBe(200);
    const body = (await response.json()) as Json;
    expect(body).toMatchObject({ type: 'search', query: { original: 'solar panels', more_results_available: false }, web: { type: 'search' } });
    expect(body.web.results).toHaveLength(4);
    const [first] = body.web.results;
    expect(first).toMatchObject({ title: expect.any(String), url: expect.any(String), language: 'en', family_friendly: true, meta_url: { hostname: hostOf(first.url) }, profile: { name: expect.any(String) } });
    expect(first.description).toContain('<strong>');
    expect(first.extra_snippets.length).toBeGreaterThan(0);
  });

  it('answers a news search with dated results', async () => {
    const body = (await (await brave('news', { q: 'solar panels', freshness: 'pw' })).json()) as Json;

    expect(body).toMatchObject({ type: 'news', query: { original: 'solar panels' } });
    expect(body.results).toHaveLength(20);
    for (const result of body.results) {
      expect(result).toMatchObject({ age: expect.stringMatching(/ago$/), meta_url: { hostname: hostOf(result.url) } });
      expect(Date.parse(`${result.page_age}Z`)).toBeGreaterThan(Date.now() - 7 * 86_400_000 - 1000);
    }
  });

  it('refuses a missing subscription token with a 422 ErrorResponse', async () => {
    const response = await brave('web', { q: 'x' }, {} as typeof BRAVE_KEY);

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      type: 'ErrorResponse',
      error: { id: expect.any(String), status: 422, code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The provided subscription token is invalid.', meta: {} },
      time: expect.any(Number),
    });
  });

  it.each([
    ['an unknown freshness', { q: 'x', freshness: 'pq' }],
    ['count over 20', { q: 'x', count: '21' }],
    ['a query over 400 characters', { q: 'x'.repeat(401) }],
  ])('refuses %s with a VALIDATION ErrorResponse', async (_name, params) => {
    const response = await brave('web', params);

    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ type: 'ErrorResponse', error: { status: 422, code: 'VALIDATION' } });
  });

  it('answers a simulated 429 as RATE_LIMITED', async () => {
    const response = await brave('web', { q: 'x [sim status=429 retry_after=1]' });

    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toMatchObject({ type: 'ErrorResponse', error: { status: 429, code: 'RATE_LIMITED' } });
  });
});

describe.each(PROTOCOLS)('every protocol: %s', (protocol) => {
  const search = WEB_SEARCH[protocol];

  it('gives the same results for the same query, whatever its directives', async () => {
    const first = await search('deterministic pancakes');
    const again = await search('deterministic pancakes [sim latency=0]');

    expect(first.status).toBe(200);
    expect(first.urls.length).toBeGreaterThan(0);
    expect(again.urls).toEqual(first.urls);
  });

  it('keeps to the sites of site: operators, the OR form included, and never to a -site: one', async () => {
    const onlyOne = await search('pancakes site:example.com');
    const either = await search('pancakes (site:acme.org OR site:news.example.org)');
    const notOne = await search('pancakes -site:example.com -site:blog.example.net');

    expect(onlyOne.urls.length).toBeGreaterThan(0);
    expect(onlyOne.urls.every((url) => isUnder(hostOf(url), 'example.com'))).toBe(true);
    expect(new Set(either.urls.map(hostOf))).toEqual(new Set(['acme.org', 'news.example.org']));
    expect(notOne.urls.length).toBeGreaterThan(0);
    expect(notOne.urls.some((url) => isUnder(hostOf(url), 'example.com') || hostOf(url) === 'blog.example.net')).toBe(false);
  });

  it('leaves the operators out of the topic', async () => {
    const { urls } = await search('pancakes site:example.com');

    expect(urls[0]).toMatch(/\/pancakes(-\d+)?$/);
  });

  it('adds one result outside the restriction for [sim offsite]', async () => {
    const plain = await search('waffles site:example.com');
    const offsite = await search('waffles site:example.com [sim offsite]');

    expect(offsite.urls.filter((url) => hostOf(url) === 'offsite.example.invalid')).toHaveLength(1);
    expect(offsite.urls.filter((url) => hostOf(url) !== 'offsite.example.invalid')).toEqual(plain.urls);
  });

  it('fails only on the protocol [sim on=...] names, and answers normally on the others', async () => {
    const query = `omelettes [sim on=${protocol} status=503]`;
    for (const other of PROTOCOLS) {
      const { status } = await WEB_SEARCH[other](query);
      expect(status).toBe(other === protocol ? 503 : 200);
    }
  });

  it('counts fail_times only where on= points', async () => {
    const query = `crepes for ${protocol} [sim on=${protocol} fail_times=1]`;
    const others = PROTOCOLS.filter((other) => other !== protocol);

    for (const other of others) expect((await WEB_SEARCH[other](query)).status).toBe(200);
    expect((await search(query)).status).toBe(500);
    expect((await search(query)).status).toBe(200);
  });

  it('hangs where on= points, until the client gives up', async () => {
    const query = `scones [sim on=${protocol} hang]`;
    const started = Date.now();

    await expect(search(query, AbortSignal.timeout(300))).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('does not hang where on= points elsewhere', async () => {
    const elsewhere = PROTOCOLS.find((other) => other !== protocol)!;

    expect((await search(`scones [sim on=${elsewhere} hang]`)).status).toBe(200);
  });

  it('refuses on= with a protocol it does not know', async () => {
    expect((await search('scones [sim on=bing status=503]')).status).toBe(protocol === 'brave' ? 422 : 400);
  });
});
