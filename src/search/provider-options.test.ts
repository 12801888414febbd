import { GatewayError } from '../errors/gateway-error';
import type { ResolvedSearchBackend, SearchBackendType } from '../providers/search/search-adapter';
import { searchAdapterFor } from '../providers/search/search-registry';
import { checkedProviderOptions } from './provider-options';

const backend = (type: SearchBackendType, id: string = type): ResolvedSearchBackend => ({
  id, name: `${type} backend`, type, baseUrl: 'http://127.0.0.1:1', apiKey: 'k', timeoutMs: 1000, maxResults: 10, headers: {}, simulated: true,
});
const check = (type: SearchBackendType, given: Record<string, Record<string, unknown>>, id?: string) => checkedProviderOptions(given, backend(type, id), searchAdapterFor(type).options);
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    if (err instanceof GatewayError) return { code: err.code, param: err.options.param, message: err.message };
    throw err;
  }
  throw new Error('expected a refusal');
};

describe("a search backend's provider_options", () => {
  it('passes the allowed options with checked values, under the backend id or else its provider type', () => {
    expect(check('exa', { exa: { type: 'neural', category: 'news' } })).toEqual({ type: 'neural', category: 'news' });
    expect(check('searxng', { 'my-searx': { safesearch: 2 }, searxng: { safesearch: 0 } }, 'my-searx')).toEqual({ safesearch: 2 });
    expect(check('tavily', { tavily: { auto_parameters: true, chunks_per_source: 3 } })).toEqual({ auto_parameters: true, chunks_per_source: 3 });
    expect(check('brave', { serper: { num: 100 } })).toBeUndefined();
  });

  it.each<[SearchBackendType, Record<string, unknown>, string, RegExp]>([
    ['exa', { type: 'deep' }, 'provider_options.exa.type', /deep search/],
    ['exa', { contents: { summary: true } }, 'provider_options.exa.contents', /Exa bills page contents/],
    ['exa', { subpages: 3 }, 'provider_options.exa.subpages', /subpage/],
    ['exa', { livecrawl: 'always' }, 'provider_options.exa.livecrawl', /Exa bills page contents/],
    ['exa', { numResults: 100 }, 'provider_options.exa.numResults', /passes type, category/],
    ['serper', { num: 100 }, 'provider_options.serper.num', /more than 10 results/],
    ['brave', { summary: 1 }, 'provider_options.brave.summary', /summarizer/],
    ['tavily', { chunks_per_source: 9 }, 'provider_options.tavily.chunks_per_source', /3/],
    ['tavily', { search_depth: 'advanced' }, 'provider_options.tavily.search_depth', /is not an option/],
  ])('refuses %s %j with invalid_parameter naming it', (type, options, param, message) => {
    const refused = refusal(() => check(type, { [type]: options }));
    expect(refused).toMatchObject({ code: 'invalid_parameter', param });
    expect(refused.message).toMatch(message);
  });
});
