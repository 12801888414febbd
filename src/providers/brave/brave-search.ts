import { z } from 'zod';
import type { SearchAdapter, SearchOptionRules, SearchCall, SearchHit, SearchTimeRange } from '../search/search-adapter';
import { hostOf, plainText, publishedAt, rankScore, withSiteOperators } from '../search/search-hits';
import { exchangeSearch, type SearchErrorText } from '../search/search-http';
import { UpstreamError } from '../upstream-error';

/** Brave refuses longer queries. */
const BRAVE_MAX_QUERY_CHARS = 400;
/** Brave's largest `count` for web search. */
const BRAVE_MAX_COUNT = 20;

const braveResultSchema = z.looseObject({
  title: z.string().nullish(),
  url: z.string(),
  description: z.string().nullish(),
  /** When the page was published or changed, ISO without a zone: `2024-03-11T14:20:05`. */
  page_age: z.string().nullish(),
  /** The same, as shown to people: `2 days ago`, `March 11, 2024`. */
  age: z.string().nullish(),
  /** The site as Brave names it (`MDN Web Docs`); news results have none. */
  profile: z.looseObject({ name: z.string().nullish() }).nullish(),
});
type BraveResult = z.infer<typeof braveResultSchema>;

/** Web search answers `{type:"search", web:{results}}` (no `web` when nothing was found), news search `{type:"news", results}`. */
const braveAnswerSchema = z.looseObject({
  type: z.string(),
  web: z.looseObject({ results: z.array(braveResultSchema) }).nullish(),
  results: z.array(braveResultSchema).nullish(),
});

const BRAVE_FRESHNESS: Record<SearchTimeRange, string> = { day: 'pd', week: 'pw', month: 'pm', year: 'py' };

/**
 * Brave Search API (`GET /res/v1/web/search` or `/res/v1/news/search`,
 * `X-Subscription-Token`). Region is `country` (upper case, `US`), language
 * `search_lang`, time range `freshness`; domains go into the query as
 * `site:` operators. A query longer than Brave's 400 characters is refused
 * here rather than cut, since a cut query asks something else. Descriptions
 * carry `<strong>` highlights, which are dropped. One unit per query.
 * @see https://api-dashboard.search.brave.com/app/documentation/web-search/query
 */
/**
 * Brave bills each request; these options change what one request returns,
 * not what it costs. The summarizer is a request of its own, billed apart.
 * @see https://api-dashboard.search.brave.com/app/documentation/web-search/query
 */
const braveSearchOptions: SearchOptionRules = {
  allowed: z.strictObject({
    safesearch: z.enum(['off', 'moderate', 'strict']).optional(),
    spellcheck: z.boolean().optional(),
    extra_snippets: z.boolean().optional(),
    text_decorations: z.boolean().optional(),
    result_filter: z.array(z.enum(['discussions', 'faq', 'infobox', 'news', 'query', 'videos', 'web', 'locations'])).max(9).optional(),
    units: z.enum(['metric', 'imperial']).optional(),
    ui_lang: z.string().regex(/^[A-Za-z]{2}(?:-[A-Za-z]{2})?$/, 'must be a code such as "en-US"').optional(),
  }),
  priced: { summary: 'Brave bills the summarizer as a request of its own, beyond the one unit per query the gateway bills' },
};

export const braveSearchAdapter: SearchAdapter = {
  type: 'brave',
  capabilities: { answer: false, advancedDepth: false, rawContent: false, region: true, language: true, timeRange: true },
  options: braveSearchOptions,
  async search(call) {
    const news = call.type === 'news';
    const { answer, payload } = await exchangeSearch({
      call,
      method: 'GET',
      path: news ? '/res/v1/news/search' : '/res/v1/web/search',
      headers: { 'x-subscription-token': call.backend.apiKey },
      fields: {
        q: braveQuery(call),
        count: Math.min(call.maxResults, BRAVE_MAX_COUNT),
        ...(call.region ? { country: call.region.toUpperCase() } : {}),
        ...(call.language ? { search_lang: call.language.toLowerCase() } : {}),
        ...(call.timeRange ? { freshness: BRAVE_FRESHNESS[call.timeRange] } : {}),
      },
      answer: braveAnswerSchema,
      errorText: braveErrorText,
    });
    const results = ((news ? answer.results : answer.web?.results) ?? []).slice(0, call.maxResults);
    return { results: results.map((result, index) => braveHit(result, index, results.length)), answer: null, billableUnits: 1, payload };
  },
};

function braveQuery(call: SearchCall): string {
  const q = withSiteOperators(call.query, call.includeDomains, call.excludeDomains);
  const length = [...q].length;
  if (length > BRAVE_MAX_QUERY_CHARS) {
    throw new UpstreamError(
      `${call.backend.name} takes queries of at most ${BRAVE_MAX_QUERY_CHARS} characters, domain filters included; this one has ${length}`,
      { status: 400, retryable: false },
    );
  }
  return q;
}

function braveHit(result: BraveResult, index: number, count: number): SearchHit {
  return {
    title: plainText(result.title ?? ''),
    url: result.url,
    snippet: plainText(result.description ?? ''),
    content: null,
    published_at: publishedAt(result.page_age) ?? publishedAt(result.age),
    score: rankScore(index, count),
    source: result.profile?.name || hostOf(result.url),
  };
}

/** `{"type":"ErrorResponse","error":{"code":"SUBSCRIPTION_TOKEN_INVALID","detail":"…"}}`. */
function braveErrorText(json: unknown): SearchErrorText | undefined {
  const error = (json as { error?: unknown } | null | undefined)?.error as { code?: unknown; detail?: unknown } | null | undefined;
  if (typeof error?.detail !== 'string') return undefined;
  return { message: error.detail, ...(typeof error.code === 'string' ? { code: error.code } : {}) };
}
