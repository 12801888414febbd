import { fakeSearchBackendFor, itHandlesSearchTransport, searchFailure, searchFixture } from '../../../test/support/fake-search-backend';
import { exaSearchAdapter } from './exa-search';

const { fake, call } = fakeSearchBackendFor('exa');

describe('Exa search adapter', () => {
  it('posts camelCase fields with x-api-key, native domain filters, and highlights for snippets', async () => {
    fake.answer(200, searchFixture('exa-search'));
    await exaSearchAdapter.search(call({ query: 'qlora fine-tuning', maxResults: 3, includeDomains: ['arxiv.org', 'huggingface.co'], excludeDomains: ['medium.com'], region: 'us', language: 'en' }));
    const req = fake.last();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/search');
    expect(req.headers['x-api-key']).toBe('test-key-123');
    expect(req.body).toEqual({
      query: 'qlora fine-tuning',
      numResults: 3,
      includeDomains: ['arxiv.org', 'huggingface.co'],
      excludeDomains: ['medium.com'],
      contents: { highlights: { maxCharacters: 300 } },
    });
  });

  it('asks for the news category, page text, and a start date a week back', async () => {
    fake.answer(200, searchFixture('exa-search-news-text'));
    const before = Date.now();
    await exaSearchAdapter.search(call({ type: 'news', includeRawContent: true, timeRange: 'week' }));
    const body = fake.last().body as Record<string, unknown>;
    expect(body).toMatchObject({ category: 'news', contents: { highlights: { maxCharacters: 300 }, text: { maxCharacters: 10000 } } });
    const daysBack = (before - Date.parse(body.startPublishedDate as string)) / 86_400_000;
    expect(daysBack).toBeCloseTo(7, 2);
  });

  it("adds the client's provider_options under the gateway's fields; the contents are the gateway's alone", async () => {
    fake.answer(200, searchFixture('exa-search'));
    const providerOptions = { type: 'neural', userLocation: 'US', numResults: 50, includeDomains: ['evil.example'], contents: { summary: { query: 'main claim' } } };
    await exaSearchAdapter.search(call({ providerOptions }));
    expect(fake.last().body).toEqual({
      type: 'neural',
      userLocation: 'US',
      query: 'test query',
      numResults: 5,
      contents: { highlights: { maxCharacters: 300 } },
    });
  });

  it('reads snippets from highlights, else the summary; no page text unless asked; Exa scores and dates', async () => {
    fake.answer(200, searchFixture('exa-search'));
    const answer = await exaSearchAdapter.search(call());
    expect(answer.payload).toEqual(JSON.parse(searchFixture('exa-search')));
    expect(answer.billableUnits).toBe(1);
    expect(answer.answer).toBeNull();
    expect(answer.results.map((r) => [r.source, r.score, r.published_at, r.content])).toEqual([
      ['arxiv.org', 0.2741, '2023-05-23T00:00:00.000Z', null],
      ['huggingface.co', 0.2519, '2023-05-24T00:00:00.000Z', null],
      ['example-ml-notes.dev', 0.2307, null, null],
    ]);
    expect(answer.results[1].snippet).toBe(
      '4-bit quantization via bitsandbytes lets you load large models on consumer hardware. … QLoRA backpropagates gradients through a frozen 4-bit model into Low Rank Adapters.',
    );
    expect(answer.results[2].snippet).toBe('An illustrated introduction to low-rank adaptation for fine-tuning transformers.');
  });

  it('gives page text as content when asked, a snippet from its start without highlights, and scores from rank without Exa scores', async () => {
    fake.answer(200, searchFixture('exa-search-news-text'));
    const answer = await exaSearchAdapter.search(call({ type: 'news', includeRawContent: true }));
    const [first, second] = answer.results;
    expect(first.content).toMatch(/^Nvidia CEO Jensen Huang took the stage/);
    expect(first.snippet.length).toBeLessThanOrEqual(300);
    expect(first.snippet).toMatch(/^Nvidia CEO Jensen Huang took the stage.*…$/);
    expect(second.snippet).toMatch(/^Nvidia unveiled Blackwell Ultra/);
    expect(answer.results.map((r) => r.score)).toEqual([1, 0.5]);
    expect(second.published_at).toBe('2025-03-18T21:04:12.000Z');
  });

  it('keeps at most the count asked for', async () => {
    fake.answer(200, searchFixture('exa-search'));
    expect((await exaSearchAdapter.search(call({ maxResults: 2 }))).results).toHaveLength(2);
  });

  it('quotes Exa with its tag: a refused key (401) is retryable as credential_refused, a bad request (400) is not', async () => {
    fake.answer(401, searchFixture('exa-error-401'));
    const refused = await searchFailure(exaSearchAdapter, call());
    expect(refused.message).toBe('My exa answered HTTP 401: Invalid API key');
    expect(refused.details).toMatchObject({ status: 401, retryable: true, cause: 'credential_refused', code: 'INVALID_API_KEY' });

    fake.answer(400, searchFixture('exa-error-400'));
    const bad = await searchFailure(exaSearchAdapter, call());
    expect(bad.message).toContain('numResults must be less than or equal to 100');
    expect(bad.details).toMatchObject({ status: 400, retryable: false, code: 'INVALID_REQUEST_BODY' });
  });

  it('quotes an error body it does not know as text, and counts used-up credits (402) as a refusal', async () => {
    fake.answer(402, 'Payment required: your credits are exhausted', { 'content-type': 'text/plain' });
    const err = await searchFailure(exaSearchAdapter, call());
    expect(err.message).toBe('My exa answered HTTP 402: Payment required: your credits are exhausted');
    expect(err.details).toMatchObject({ status: 402, retryable: true, cause: 'credential_refused' });
  });

  itHandlesSearchTransport(exaSearchAdapter, () => fake);
});
