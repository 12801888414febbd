import { fakeSearchBackendFor, itHandlesSearchTransport, searchFailure, searchFixture } from '../../../test/support/fake-search-backend';
import { serperSearchAdapter } from './serper-search';

const { fake, call } = fakeSearchBackendFor('serper');

describe('Serper search adapter', () => {
  it('posts a web search to /search with X-API-KEY, region, language, time range and site operators', async () => {
    fake.answer(200, searchFixture('serper-search'));
    await serperSearchAdapter.search(
      call({ query: 'rust async runtime comparison', maxResults: 4, region: 'DE', language: 'de', timeRange: 'month', includeDomains: ['tokio.rs', 'github.com'], excludeDomains: ['reddit.com'] }),
    );
    const req = fake.last();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/search');
    expect(req.headers['x-api-key']).toBe('test-key-123');
    expect(req.headers.authorization).toBeUndefined();
    expect(req.body).toEqual({
      q: 'rust async runtime comparison (site:tokio.rs OR site:github.com) -site:reddit.com',
      num: 4,
      gl: 'de',
      hl: 'de',
      tbs: 'qdr:m',
    });
  });

  it('posts news searches to /news and sends only what was asked', async () => {
    fake.answer(200, searchFixture('serper-news'));
    await serperSearchAdapter.search(call({ type: 'news', includeDomains: ['reuters.com'] }));
    expect(fake.last().path).toBe('/news');
    expect(fake.last().body).toEqual({ q: 'test query site:reuters.com', num: 5 });
  });

  it("adds the client's provider_options under the gateway's fields", async () => {
    fake.answer(200, searchFixture('serper-search'));
    await serperSearchAdapter.search(call({ region: 'us', providerOptions: { location: 'Austin, Texas, United States', page: 2, q: 'something else', num: 100, gl: 'fr', tbs: 'qdr:h' } }));
    expect(fake.last().body).toEqual({ location: 'Austin, Texas, United States', page: 2, q: 'test query', num: 5, gl: 'us', tbs: 'qdr:h' });
  });

  it('reads organic results in order, scored from rank, with dates and hosts', async () => {
    fake.answer(200, searchFixture('serper-search'));
    const answer = await serperSearchAdapter.search(call({ maxResults: 4 }));
    expect(answer.payload).toEqual(JSON.parse(searchFixture('serper-search')));
    expect(answer.answer).toBeNull();
    expect(answer.billableUnits).toBe(1);
    expect(answer.results.map((r) => [r.url, r.score, r.source, r.published_at])).toEqual([
      ['https://tokio.rs/', 1, 'tokio.rs', null],
      ['https://www.example-devblog.io/posts/async-runtimes', 0.75, 'example-devblog.io', '2024-01-14T00:00:00.000Z'],
      ['https://rust-lang.github.io/async-book/', 0.5, 'rust-lang.github.io', null],
      ['https://github.com/smol-rs/smol', 0.25, 'github.com', null],
    ]);
    expect(answer.results[0]).toMatchObject({ title: 'Tokio - An asynchronous Rust runtime', snippet: expect.stringMatching(/^Tokio is an event-driven/), content: null });
  });

  it('reads news results with their publisher as source and relative dates made absolute', async () => {
    fake.answer(200, searchFixture('serper-news'));
    const before = Date.now();
    const answer = await serperSearchAdapter.search(call({ type: 'news' }));
    expect(answer.results.map((r) => r.source)).toEqual(['Reuters', 'Bloomberg.com', 'CNBC']);
    const hoursAgo = (r: number) => (before - Date.parse(answer.results[r].published_at!)) / 3_600_000;
    expect(hoursAgo(0)).toBeCloseTo(2, 1);
    expect(hoursAgo(1)).toBeCloseTo(24, 1);
    expect(answer.results[2].published_at).toBe('2025-01-05T00:00:00.000Z');
    expect(answer.results.map((r) => r.score)).toEqual([1, 2 / 3, 1 / 3]);
  });

  it('treats a search without organic results as empty', async () => {
    fake.answer(200, '{"searchParameters":{"q":"zzqxj","type":"search","engine":"google"},"credits":1}');
    expect((await serperSearchAdapter.search(call())).results).toEqual([]);
  });

  it('quotes Serper: a refused key (403) is retryable as credential_refused, a bad request (400) is not', async () => {
    fake.answer(403, searchFixture('serper-error-403'));
    const refused = await searchFailure(serperSearchAdapter, call());
    expect(refused.message).toBe('My serper answered HTTP 403: Unauthorized.');
    expect(refused.details).toMatchObject({ status: 403, retryable: true, cause: 'credential_refused' });

    fake.answer(400, searchFixture('serper-error-400'));
    const bad = await searchFailure(serperSearchAdapter, call());
    expect(bad.message).toBe('My serper answered HTTP 400: Query not allowed. Contact support.');
    expect(bad.details).toMatchObject({ status: 400, retryable: false });
  });

  itHandlesSearchTransport(serperSearchAdapter, () => fake);
});
