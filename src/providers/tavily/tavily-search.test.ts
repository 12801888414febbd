import { fakeSearchBackendFor, itHandlesSearchTransport, searchFailure, searchFixture } from '../../../test/support/fake-search-backend';
import { tavilySearchAdapter } from './tavily-search';

const { fake, call } = fakeSearchBackendFor('tavily');

describe('Tavily search adapter', () => {
  it('posts a basic web search with the key as a bearer token and usage asked for', async () => {
    fake.answer(200, searchFixture('tavily-search-basic'));
    await tavilySearchAdapter.search(call({ query: 'grid-scale battery storage chemistries' }));
    const req = fake.last();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/search');
    expect(req.headers.authorization).toBe('Bearer test-key-123');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body).toEqual({
      query: 'grid-scale battery storage chemistries',
      topic: 'general',
      search_depth: 'basic',
      max_results: 5,
      include_answer: false,
      include_raw_content: false,
      include_usage: true,
    });
  });

  it('maps news, advanced depth, answer, raw content, native domain filters and the time range', async () => {
    fake.answer(200, searchFixture('tavily-search-news-advanced'));
    await tavilySearchAdapter.search(
      call({ type: 'news', searchDepth: 'advanced', includeAnswer: true, includeRawContent: true, timeRange: 'week', includeDomains: ['reuters.com', 'apnews.com'], excludeDomains: ['ft.com'], region: 'us', language: 'en' }),
    );
    expect(fake.last().body).toEqual({
      query: 'test query',
      topic: 'news',
      search_depth: 'advanced',
      max_results: 5,
      include_answer: true,
      include_raw_content: 'text',
      include_domains: ['reuters.com', 'apnews.com'],
      exclude_domains: ['ft.com'],
      time_range: 'week',
      include_usage: true,
    });
  });

  it("adds the client's provider_options under the gateway's fields, which they cannot replace", async () => {
    fake.answer(200, searchFixture('tavily-search-basic'));
    const providerOptions = { chunks_per_source: 2, country: 'germany', query: 'other', max_results: 20, include_domains: ['evil.example'], api_key: 'tvly-client', include_usage: false, time_range: 'month' };
    await tavilySearchAdapter.search(call({ providerOptions }));
    const body = fake.last().body as Record<string, unknown>;
    expect(body).toMatchObject({ chunks_per_source: 2, country: 'germany', query: 'test query', max_results: 5, include_usage: true, time_range: 'month' });
    expect(body).not.toHaveProperty('include_domains');
    expect(body).not.toHaveProperty('api_key');
    expect(fake.last().headers.authorization).toBe('Bearer test-key-123');
  });

  it('reads a basic answer: snippets from content, no page text, score, host as source, 1 reported credit', async () => {
    fake.answer(200, searchFixture('tavily-search-basic'));
    const answer = await tavilySearchAdapter.search(call({ includeAnswer: true }));
    expect(answer.payload).toEqual(JSON.parse(searchFixture('tavily-search-basic')));
    expect(answer.answer).toBeNull();
    expect(answer.billableUnits).toBe(1);
    expect(answer.results.map((r) => r.source)).toEqual(['energy.gov', 'en.wikipedia.org', 'nrel.gov', 'iea.org', 'blog.example-energy.com']);
    expect(answer.results[0]).toEqual({
      title: 'How Does Grid-Scale Battery Storage Work? | Department of Energy',
      url: 'https://www.energy.gov/eere/articles/how-does-grid-scale-battery-storage-work',
      snippet: expect.stringMatching(/^Grid-scale batteries store electricity/),
      content: null,
      published_at: null,
      score: 0.86541,
      source: 'energy.gov',
    });
  });

  it('reads a news answer: the answer, page text, publication dates, and the 2 credits reported', async () => {
    fake.answer(200, searchFixture('tavily-search-news-advanced'));
    const answer = await tavilySearchAdapter.search(call({ type: 'news', searchDepth: 'advanced', includeAnswer: true, includeRawContent: true }));
    expect(answer.answer).toMatch(/^The European Central Bank cut/);
    expect(answer.billableUnits).toBe(2);
    expect(answer.results.map((r) => [r.published_at, r.score])).toEqual([
      ['2025-03-06T13:45:00.000Z', 0.91873],
      ['2025-03-19T18:02:11.000Z', 0.88412],
      ['2025-03-20T12:00:00.000Z', 0.80155],
    ]);
    expect(answer.results[0].content).toMatch(/^FRANKFURT, March 6 \(Reuters\)/);
    expect(answer.results[0].snippet).toMatch(/^The European Central Bank cut interest rates/);
    expect(answer.results[2].content).toBeNull();
  });

  it('leaves out an answer not asked for, page text not asked for, and results beyond the count', async () => {
    fake.answer(200, searchFixture('tavily-search-news-advanced'));
    const answer = await tavilySearchAdapter.search(call({ maxResults: 2 }));
    expect(answer.answer).toBeNull();
    expect(answer.results).toHaveLength(2);
    expect(answer.results.every((r) => r.content === null)).toBe(true);
  });

  it('counts 1 unit basic and 2 advanced when no usage is reported', async () => {
    const { usage: _usage, ...withoutUsage } = JSON.parse(searchFixture('tavily-search-basic'));
    fake.answer(200, JSON.stringify(withoutUsage));
    expect((await tavilySearchAdapter.search(call())).billableUnits).toBe(1);
    expect((await tavilySearchAdapter.search(call({ searchDepth: 'advanced' }))).billableUnits).toBe(2);
  });

  it('quotes Tavily: a refused key (401) or plan limit (432) is retryable as credential_refused, a bad request (400) is not', async () => {
    fake.answer(401, searchFixture('tavily-error-401'));
    const refused = await searchFailure(tavilySearchAdapter, call());
    expect(refused.message).toBe('My tavily answered HTTP 401: Unauthorized: missing or invalid API key.');
    expect(refused.details).toMatchObject({ status: 401, retryable: true, cause: 'credential_refused' });

    fake.answer(432, searchFixture('tavily-error-432'));
    const plan = await searchFailure(tavilySearchAdapter, call());
    expect(plan.message).toContain("exceeds your plan's set usage limit");
    expect(plan.details).toMatchObject({ status: 432, retryable: true, cause: 'credential_refused' });

    fake.answer(400, searchFixture('tavily-error-400'));
    const bad = await searchFailure(tavilySearchAdapter, call());
    expect(bad.message).toContain("Invalid topic. Must be 'general', 'news' or 'finance'.");
    expect(bad.details).toMatchObject({ status: 400, retryable: false });
    expect(bad.details.cause).toBeUndefined();
  });

  it('reads a FastAPI validation error (422) and counts it as a refusal', async () => {
    fake.answer(422, '{"detail":[{"loc":["body","max_results"],"msg":"Input should be less than or equal to 20","type":"less_than_equal"}]}');
    const err = await searchFailure(tavilySearchAdapter, call());
    expect(err.message).toBe('My tavily answered HTTP 422: Input should be less than or equal to 20');
    expect(err.details).toMatchObject({ status: 422, retryable: true, cause: 'credential_refused' });
  });

  itHandlesSearchTransport(tavilySearchAdapter, () => fake);
});
