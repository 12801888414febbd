import { fakeSearchBackendFor, itHandlesSearchTransport, searchFailure, searchFixture } from '../../../test/support/fake-search-backend';
import { searxngSearchAdapter } from './searxng-search';

// A private SearXNG takes no key.
const { fake, call } = fakeSearchBackendFor('searxng', { apiKey: '' });

/** Werkzeug's page for a format the instance does not allow. */
const FORBIDDEN_PAGE = `<!doctype html>
<html lang=en>
<title>403 Forbidden</title>
<h1>Forbidden</h1>
<p>You don&#39;t have the permission to access the requested resource. It is either read-protected or not readable by the server.</p>
`;

describe('SearXNG search adapter', () => {
  it('gets /search with the JSON format, the general category, language, time range and site operators', async () => {
    fake.answer(200, searchFixture('searxng-general'));
    await searxngSearchAdapter.search(
      call({ query: 'postgres vacuum full lock', language: 'en', timeRange: 'year', region: 'us', includeDomains: ['postgresql.org'], excludeDomains: ['stackoverflow.com', 'reddit.com'] }),
    );
    const req = fake.last();
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/search');
    expect(req.body).toBeUndefined();
    expect(req.headers.authorization).toBeUndefined();
    expect(req.query).toEqual({
      q: 'postgres vacuum full lock site:postgresql.org -site:stackoverflow.com -site:reddit.com',
      format: 'json',
      categories: 'general',
      language: 'en',
      time_range: 'year',
      pageno: '1',
    });
  });

  it('asks the news category for news, and sends the configured headers', async () => {
    fake.answer(200, searchFixture('searxng-news'));
    await searxngSearchAdapter.search(call({ type: 'news' }, { headers: { authorization: 'Basic b3A6c2VjcmV0' } }));
    expect(fake.last().query).toEqual({ q: 'test query', format: 'json', categories: 'news', pageno: '1' });
    expect(fake.last().headers.authorization).toBe('Basic b3A6c2VjcmV0');
  });

  it("adds the client's provider_options as parameters under the gateway's, lists comma-separated", async () => {
    fake.answer(200, searchFixture('searxng-general'));
    await searxngSearchAdapter.search(call({ providerOptions: { engines: ['duckduckgo', 'brave'], safesearch: 1, format: 'html', q: 'other', categories: 'images' } }));
    expect(fake.last().query).toEqual({ engines: 'duckduckgo,brave', safesearch: '1', q: 'test query', format: 'json', categories: 'general', pageno: '1' });
  });

  it("reads results in order with SearXNG's scores, clipped to the count, hosts as source", async () => {
    fake.answer(200, searchFixture('searxng-general'));
    const answer = await searxngSearchAdapter.search(call({ maxResults: 3 }));
    expect(answer.payload).toEqual(JSON.parse(searchFixture('searxng-general')));
    expect(answer.billableUnits).toBe(1);
    expect(answer.answer).toBeNull();
    expect(answer.results.map((r) => [r.source, r.score, r.content])).toEqual([
      ['postgresql.org', 9, null],
      ['cybertec-postgresql.com', 4, null],
      ['stackoverflow.com', 1, null],
    ]);
    expect(answer.results[0]).toMatchObject({ title: 'PostgreSQL: Documentation: 17: VACUUM', snippet: expect.stringMatching(/^VACUUM FULL rewrites/), published_at: null });
  });

  it('reads publication dates with or without a zone, as UTC when none is given', async () => {
    fake.answer(200, searchFixture('searxng-news'));
    const answer = await searxngSearchAdapter.search(call({ type: 'news' }));
    expect(answer.results.map((r) => r.published_at)).toEqual(['2025-07-01T09:12:00.000Z', '2025-06-30T15:45:00.000Z', null]);
  });

  it('scores from rank when SearXNG gives no score', async () => {
    const withoutScores = JSON.parse(searchFixture('searxng-news'));
    for (const result of withoutScores.results) delete result.score;
    fake.answer(200, JSON.stringify(withoutScores));
    const answer = await searxngSearchAdapter.search(call());
    expect(answer.results.map((r) => r.score)).toEqual([1, 2 / 3, 1 / 3]);
  });

  it('quotes an HTML error page as text: a format the instance refuses (403) is retryable, a bad request (400) is not', async () => {
    fake.answer(403, FORBIDDEN_PAGE, { 'content-type': 'text/html; charset=utf-8' });
    const refused = await searchFailure(searxngSearchAdapter, call());
    expect(refused.message).toBe(
      "My searxng answered HTTP 403: 403 Forbidden Forbidden You don't have the permission to access the requested resource. It is either read-protected or not readable by the server.",
    );
    expect(refused.details).toMatchObject({ status: 403, retryable: true, cause: 'credential_refused' });

    fake.answer(400, 'Bad Request', { 'content-type': 'text/plain' });
    const bad = await searchFailure(searxngSearchAdapter, call());
    expect(bad.message).toBe('My searxng answered HTTP 400: Bad Request');
    expect(bad.details).toMatchObject({ status: 400, retryable: false });
  });

  it('counts a 401 from a proxy in front of the instance as a refused credential', async () => {
    fake.answer(401, '{"message":"Unauthorized"}');
    const err = await searchFailure(searxngSearchAdapter, call());
    expect(err.details).toMatchObject({ status: 401, retryable: true, cause: 'credential_refused' });
    expect(err.message).toBe('My searxng answered HTTP 401: Unauthorized');
  });

  itHandlesSearchTransport(searxngSearchAdapter, () => fake);
});
