import { z } from 'zod';
import type { SearchAdapter, SearchCall, SearchHit, SearchOptionRules } from '../search/search-adapter';
import { hostOf, publishedAt, rankScore } from '../search/search-hits';
import { exchangeSearch, type SearchErrorText } from '../search/search-http';

/** The parts of a Tavily search answer the gateway reads; anything else is kept in the payload. */
const tavilyAnswerSchema = z.looseObject({
  answer: z.string().nullish(),
  results: z.array(
    z.looseObject({
      title: z.string().nullish(),
      url: z.string(),
      content: z.string().nullish(),
      score: z.number().nullish(),
      raw_content: z.string().nullish(),
      published_date: z.string().nullish(),
    }),
  ),
  usage: z.looseObject({ credits: z.number().nonnegative() }).nullish(),
});
type TavilyResult = z.infer<typeof tavilyAnswerSchema>['results'][number];

/**
 * Tavily search (`POST /search`, `Authorization: Bearer`). Domain filters
 * and time ranges are native; raw content is asked as plain text; usage is
 * always asked for, so the units billed are the credits Tavily reports (an
 * advanced search, or one `auto_parameters` upgraded, costs 2), with 1 basic
 * and 2 advanced when it reports none. Tavily's `country` takes full country
 * names (`united states`), so the gateway's region is not mapped to it.
 * @see https://docs.tavily.com/documentation/api-reference/endpoint/search
 */
export const tavilySearchAdapter: SearchAdapter = {
  type: 'tavily',
  capabilities: { answer: true, advancedDepth: true, rawContent: true, region: false, language: false, timeRange: true },
  options: tavilySearchOptions(),
  async search(call) {
    const { answer, payload } = await exchangeSearch({
      call,
      method: 'POST',
      path: '/search',
      headers: { authorization: `Bearer ${call.backend.apiKey}` },
      fields: {
        api_key: undefined, // the key travels in the header only, never one from the client
        query: call.query,
        topic: call.type === 'news' ? 'news' : 'general',
        search_depth: call.searchDepth,
        max_results: call.maxResults,
        include_answer: call.includeAnswer,
        include_raw_content: call.includeRawContent ? 'text' : false,
        include_domains: call.includeDomains.length ? call.includeDomains : undefined,
        exclude_domains: call.excludeDomains.length ? call.excludeDomains : undefined,
        ...(call.timeRange ? { time_range: call.timeRange } : {}),
        include_usage: true,
      },
      answer: tavilyAnswerSchema,
      errorText: tavilyErrorText,
      credentialStatuses: [432, 433],
    });
    const results = answer.results.slice(0, call.maxResults);
    return {
      results: results.map((result, index) => tavilyHit(call, result, index, results.length)),
      answer: (call.includeAnswer && answer.answer) || null,
      billableUnits: answer.usage?.credits ?? (call.searchDepth === 'advanced' ? 2 : 1),
      payload,
    };
  },
};

/**
 * Tavily bills by credits, and reports those it billed: `auto_parameters`
 * (which may make a search advanced, 2 credits) is billed as reported, within
 * the two units held. The other allowed options cost nothing more; the
 * search depth, answer and page contents are the request's own fields.
 * @see https://docs.tavily.com/documentation/api-credits
 */
function tavilySearchOptions(): SearchOptionRules {
  return {
    allowed: z.strictObject({
      auto_parameters: z.boolean().optional(),
      chunks_per_source: z.number().int().min(1).max(3).optional(),
      days: z.number().int().min(1).max(365).optional(),
      country: z.string().min(1).max(64).optional(),
      include_images: z.boolean().optional(),
      include_image_descriptions: z.boolean().optional(),
      include_favicon: z.boolean().optional(),
    }),
    priced: {},
  };
}

function tavilyHit(call: SearchCall, result: TavilyResult, index: number, count: number): SearchHit {
  return {
    title: result.title ?? '',
    url: result.url,
    snippet: result.content ?? '',
    content: call.includeRawContent ? (result.raw_content ?? null) : null,
    published_at: publishedAt(result.published_date),
    score: result.score ?? rankScore(index, count),
    source: hostOf(result.url),
  };
}

/** `{"detail":{"error":"…"}}`; a request validation error has FastAPI's `{"detail":[{"msg":"…"}]}`. */
function tavilyErrorText(json: unknown): SearchErrorText | undefined {
  const detail = (json as { detail?: unknown } | undefined)?.detail;
  if (typeof detail === 'string') return { message: detail };
  if (Array.isArray(detail)) return { message: detail.map((d) => (d as { msg?: unknown })?.msg).filter((m) => typeof m === 'string').join('; ') };
  const error = (detail as { error?: unknown } | undefined)?.error;
  return typeof error === 'string' ? { message: error } : undefined;
}
