import { z } from 'zod';
import type { SearchAdapter, SearchOptionRules, SearchHit } from '../search/search-adapter';
import { hostOf, publishedAt, rankScore, withSiteOperators } from '../search/search-hits';
import { errorOrMessage, exchangeSearch } from '../search/search-http';

const searxngAnswerSchema = z.looseObject({
  results: z.array(
    z.looseObject({
      url: z.string(),
      title: z.string().nullish(),
      content: z.string().nullish(),
      score: z.number().nullish(),
      publishedDate: z.string().nullish(),
    }),
  ),
});
type SearxngResult = z.infer<typeof searxngAnswerSchema>['results'][number];

/**
 * A SearXNG instance (`GET /search?format=json`), a metasearch engine an
 * operator usually runs for itself: no credential (the backend's configured
 * headers carry one when a proxy in front wants it), no region, and no
 * domain filter but the engines' `site:` operators. `categories` picks web
 * or news; SearXNG answers a whole page, clipped here to the count asked.
 * The instance must allow the JSON format (`search.formats` in its
 * settings), or it answers 403. One unit per query.
 * @see https://docs.searxng.org/dev/search_api.html
 */
/** A self-hosted SearXNG bills nothing; its engine choice, safe search and result page are the client's to pick. */
const searxngSearchOptions: SearchOptionRules = {
  allowed: z.strictObject({
    engines: z.union([z.string().max(500), z.array(z.string().max(100)).max(50)]).optional(),
    categories: z.string().max(200).optional(),
    safesearch: z.union([z.literal(0), z.literal(1), z.literal(2)]).optional(),
    pageno: z.number().int().min(1).max(10).optional(),
  }),
  priced: {},
};

export const searxngSearchAdapter: SearchAdapter = {
  type: 'searxng',
  capabilities: { answer: false, advancedDepth: false, rawContent: false, region: false, language: true, timeRange: true },
  options: searxngSearchOptions,
  async search(call) {
    const { answer, payload } = await exchangeSearch({
      call,
      method: 'GET',
      path: '/search',
      headers: {},
      fields: {
        q: withSiteOperators(call.query, call.includeDomains, call.excludeDomains),
        format: 'json',
        categories: call.type === 'news' ? 'news' : 'general',
        ...(call.language ? { language: call.language } : {}),
        ...(call.timeRange ? { time_range: call.timeRange } : {}),
        pageno: 1,
      },
      answer: searxngAnswerSchema,
      errorText: errorOrMessage, // mostly text or an HTML page, quoted as text
    });
    const results = answer.results.slice(0, call.maxResults);
    return { results: results.map((result, index) => searxngHit(result, index, results.length)), answer: null, billableUnits: 1, payload };
  },
};

/** SearXNG's `score` grows with the number of engines that found a result and their ranks; it is not bounded by 1. */
function searxngHit(result: SearxngResult, index: number, count: number): SearchHit {
  return {
    title: result.title ?? '',
    url: result.url,
    snippet: result.content ?? '',
    content: null,
    published_at: publishedAt(result.publishedDate),
    score: result.score ?? rankScore(index, count),
    source: hostOf(result.url),
  };
}
