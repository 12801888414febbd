import { fakeSearchBackendFor, itHandlesSearchTransport, searchFailure, searchFixture } from '../../../test/support/fake-search-backend';
import { braveSearchAdapter } from './brave-search';

const { fake, call } = fakeSearchBackendFor('brave');

describe('Brave search adapter', () => {
  it('gets /res/v1/web/search with the subscription token, country, search_lang, freshness and site operators', async () => {
    fake.answer(200, searchFixture('brave-web'));
    await braveSearchAdapter.search(
      call({ query: 'how do webauthn passkeys work', maxResults: 3, region: 'us', language: 'EN', timeRange: 'day', includeDomains: ['mozilla.org'], excludeDomains: ['pinterest.com'] }),
    );
    const req = fake.last();
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/res/v1/web/search');
    expect(req.headers['x-subscription-token']).toBe('test-key-123');
    expect(req.headers.accept).toBe('application/json');
    expect(req.query).toEqual({ q: 'how do webauthn passkeys work site:mozilla.org -site:pinterest.com', count: '3', country: 'US', search_lang: 'en', freshness: 'pd' });
  });

  it('gets /res/v1/news/search for news, never asking more than 20', async () => {
    fake.answer(200, searchFixture('brave-news'));
    await braveSearchAdapter.search(call({ type: 'news', maxResults: 50 }));
    expect(fake.last().path).toBe('/res/v1/news/search');
    expect(fake.last().query).toEqual({ q: 'test query', count: '20' });
  });

  it("adds the client's provider_options under the gateway's parameters", async () => {
    fake.answer(200, searchFixture('brave-web'));
    await braveSearchAdapter.search(call({ timeRange: 'week', providerOptions: { safesearch: 'strict', extra_snippets: true, result_filter: ['web', 'news'], freshness: '2024-01-01to2024-06-30', count: 20, q: 'x' } }));
    expect(fake.last().query).toEqual({ safesearch: 'strict', extra_snippets: 'true', result_filter: 'web,news', freshness: 'pw', count: '5', q: 'test query' });
  });

  it('refuses a query over 400 characters, domain filters included, without calling Brave', async () => {
    const before = fake.requests.length;
    const err = await searchFailure(braveSearchAdapter, call({ query: 'a'.repeat(390), includeDomains: ['example.com'] }));
    expect(err.details).toMatchObject({ status: 400, retryable: false });
    expect(err.message).toBe('My brave takes queries of at most 400 characters, domain filters included; this one has 407');
    expect(fake.requests.length).toBe(before);
  });

  it('reads web results: tags and entities dropped from descriptions, profile names as source, page_age or age as date', async () => {
    fake.answer(200, searchFixture('brave-web'));
    const before = Date.now();
    const answer = await braveSearchAdapter.search(call());
    expect(answer.payload).toEqual(JSON.parse(searchFixture('brave-web')));
    expect(answer.billableUnits).toBe(1);
    expect(answer.answer).toBeNull();
    expect(answer.results[0]).toEqual({
      title: 'Passkeys - WebAuthn Guide',
      url: 'https://webauthn.guide/',
      snippet: 'An introduction to Web Authentication (WebAuthn), the new API that can replace passwords with strong authentication & public-key cryptography.',
      content: null,
      published_at: '2024-02-11T08:15:22.000Z',
      score: 1,
      source: 'Webauthn',
    });
    expect(answer.results.map((r) => [r.source, r.score])).toEqual([
      ['Webauthn', 1],
      ['Google for Developers', 2 / 3],
      ['MDN Web Docs', 1 / 3],
    ]);
    const daysAgo = (before - Date.parse(answer.results[1].published_at!)) / 86_400_000;
    expect(daysAgo).toBeCloseTo(3, 2);
  });

  it('reads news results from the top level, with the host as source', async () => {
    fake.answer(200, searchFixture('brave-news'));
    const answer = await braveSearchAdapter.search(call({ type: 'news', maxResults: 1 }));
    expect(answer.results).toEqual([
      {
        title: 'NASA picks new plan for Mars Sample Return',
        url: 'https://www.space.com/nasa-mars-sample-return-new-plan',
        snippet: 'NASA will decide between two landing architectures to bring rock cores collected by Perseverance back to Earth.',
        content: null,
        published_at: '2025-01-07T18:30:00.000Z',
        score: 1,
        source: 'space.com',
      },
    ]);
  });

  it('decodes numeric entities and falls back to the relative age', async () => {
    fake.answer(200, searchFixture('brave-news'));
    const before = Date.now();
    const [, second] = (await braveSearchAdapter.search(call({ type: 'news' }))).results;
    expect(second.snippet).toMatch(/^The mission's cost ballooned/);
    expect((before - Date.parse(second.published_at!)) / 86_400_000).toBeCloseTo(1, 2);
  });

  it('treats a web answer without web results as empty', async () => {
    fake.answer(200, '{"type":"search","query":{"original":"zzqxj","more_results_available":false}}');
    expect((await braveSearchAdapter.search(call())).results).toEqual([]);
  });

  it('quotes Brave with its code: a bad token (422) is retryable as credential_refused; a rate limit keeps Retry-After', async () => {
    fake.answer(422, searchFixture('brave-error-422'));
    const refused = await searchFailure(braveSearchAdapter, call());
    expect(refused.message).toBe('My brave answered HTTP 422: The provided subscription token is invalid.');
    expect(refused.details).toMatchObject({ status: 422, retryable: true, cause: 'credential_refused', code: 'SUBSCRIPTION_TOKEN_INVALID' });

    fake.answer(429, searchFixture('brave-error-429'), { 'retry-after': '1' });
    const limited = await searchFailure(braveSearchAdapter, call());
    expect(limited.details).toMatchObject({ status: 429, retryable: true, retryAfterSeconds: 1, code: 'RATE_LIMITED' });
    expect(limited.details.cause).toBeUndefined();
  });

  it('does not retry a bad request (400)', async () => {
    fake.answer(400, '{"type":"ErrorResponse","error":{"id":"x","status":400,"code":"VALIDATION","detail":"Unable to validate request parameter(s)."},"time":1736272800}');
    const bad = await searchFailure(braveSearchAdapter, call());
    expect(bad.details).toMatchObject({ status: 400, retryable: false, code: 'VALIDATION' });
  });

  itHandlesSearchTransport(braveSearchAdapter, () => fake);
});
