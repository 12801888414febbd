import { z } from 'zod';
import type { SearchAdapter, SearchOptionRules, SearchHit, SearchTimeRange } from '../search/search-adapter';
import { hostOf, publishedAt, rankScore, withSiteOperators } from '../search/search-hits';
import { errorOrMessage, exchangeSearch } from '../search/search-http';

const serperResultSchema = z.looseObject({
  title: z.string().nullish(),
  link: z.string(),
  snippet: z.string().nullish(),
  date: z.string().nullish(),
  /** News results only: the publisher's name. */
  source: z.string().nullish(),
});
type SerperResult = z.infer<typeof serperResultSchema>;

/** `/search` answers `organic`, `/news` answers `news`; both echo `searchParameters`, which tells a Serper answer from any other JSON. */
const serperAnswerSchema = z.looseObject({
  searchParameters: z.looseObject({}),
  organic: z.array(serperResultSchema).optional(),
  news: z.array(serperResultSchema).optional(),
});

/** Google's `tbs` recency filters. */
const SERPER_TBS: Record<SearchTimeRange, string> = { day: 'qdr:d', week: 'qdr:w', month: 'qdr:m', year: 'qdr:y' };

/**
 * Serper, Google results as JSON (`POST /search` or `/news`, `X-API-KEY`).
 * Region and language are Google's `gl` and `hl`, the time range its `tbs`
 * filter; Google has no domain filter but its `site:` operators, so they go
 * into the query. Results come in Google's order with a `position` and no
 * score, so the score is derived from rank. One unit per query.
 * @see https://serper.dev/playground
 */
/**
 * Serper bills one credit per query of up to 10 results (more results cost
 * more credits): the count is the gateway's; a location, autocorrect and the
 * page of results cost nothing more.
 * @see https://serper.dev
 */
const serperSearchOptions: SearchOptionRules = {
  allowed: z.strictObject({
    location: z.string().min(1).max(200).optional(),
    autocorrect: z.boolean().optional(),
    page: z.number().int().min(1).max(10).optional(),
  }),
  priced: { num: 'Serper bills more than one credit for more than 10 results; max_results sets the count' },
};

export const serperSearchAdapter: SearchAdapter = {
  type: 'serper',
  capabilities: { answer: false, advancedDepth: false, rawContent: false, region: true, language: true, timeRange: true },
  options: serperSearchOptions,
  async search(call) {
    const news = call.type === 'news';
    const { answer, payload } = await exchangeSearch({
      call,
      method: 'POST',
      path: news ? '/news' : '/search',
      headers: { 'x-api-key': call.backend.apiKey },
      fields: {
        q: withSiteOperators(call.query, call.includeDomains, call.excludeDomains),
        num: call.maxResults,
        ...(call.region ? { gl: call.region.toLowerCase() } : {}),
        ...(call.language ? { hl: call.language.toLowerCase() } : {}),
        ...(call.timeRange ? { tbs: SERPER_TBS[call.timeRange] } : {}),
      },
      answer: serperAnswerSchema,
      errorText: errorOrMessage, // {"message":"Unauthorized.","statusCode":403}
    });
    const results = ((news ? answer.news : answer.organic) ?? []).slice(0, call.maxResults);
    return { results: results.map((result, index) => serperHit(result, index, results.length)), answer: null, billableUnits: 1, payload };
  },
};

function serperHit(result: SerperResult, index: number, count: number): SearchHit {
  return {
    title: result.title ?? '',
    url: result.link,
    snippet: result.snippet ?? '',
    content: null,
    published_at: publishedAt(result.date),
    score: rankScore(index, count),
    source: result.source || hostOf(result.link),
  };
}
