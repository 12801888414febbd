import { z } from 'zod';
import type { SearchAdapter, SearchCall, SearchHit, SearchOptionRules } from '../search/search-adapter';
import { clip, hostOf, publishedAt, rankScore, timeRangeStart } from '../search/search-hits';
import { errorOrMessage, exchangeSearch, type SearchErrorText } from '../search/search-http';

/** Characters of a highlight asked for, and of a snippet cut from the page text when there is none. */
const SNIPPET_CHARS = 300;
/** Page text asked for when raw content is wanted (exa-py's default). */
const TEXT_CHARS = 10_000;

const exaAnswerSchema = z.looseObject({
  results: z.array(
    z.looseObject({
      url: z.string(),
      title: z.string().nullish(),
      score: z.number().nullish(),
      publishedDate: z.string().nullish(),
      text: z.string().nullish(),
      highlights: z.array(z.string()).nullish(),
      summary: z.string().nullish(),
    }),
  ),
});
type ExaResult = z.infer<typeof exaAnswerSchema>['results'][number];

/**
 * Exa search (`POST /search`, `x-api-key`, camelCase fields). Domain filters
 * are native; a time range becomes `startPublishedDate`; news is Exa's
 * `news` category. Snippets come from highlights, which are always asked
 * for; page text only when raw content is wanted. One unit per query: the
 * client's options are those that leave it so (`exaSearchOptions`).
 * @see https://docs.exa.ai/reference/search
 */
export const exaSearchAdapter: SearchAdapter = {
  type: 'exa',
  capabilities: { answer: false, advancedDepth: false, rawContent: true, region: false, language: false, timeRange: true },
  options: exaSearchOptions(),
  async search(call) {
    const { answer, payload } = await exchangeSearch({
      call,
      method: 'POST',
      path: '/search',
      headers: { 'x-api-key': call.backend.apiKey },
      fields: {
        query: call.query,
        numResults: call.maxResults,
        includeDomains: call.includeDomains.length ? call.includeDomains : undefined,
        excludeDomains: call.excludeDomains.length ? call.excludeDomains : undefined,
        ...(call.type === 'news' ? { category: 'news' } : {}),
        ...(call.timeRange ? { startPublishedDate: timeRangeStart(call.timeRange).toISOString() } : {}),
        contents: {
          highlights: { maxCharacters: SNIPPET_CHARS },
          ...(call.includeRawContent ? { text: { maxCharacters: TEXT_CHARS } } : {}),
        },
      },
      answer: exaAnswerSchema,
      errorText: exaErrorText,
      credentialStatuses: [402], // credits used up: another backend may still answer
    });
    const results = answer.results.slice(0, call.maxResults);
    return { results: results.map((result, index) => exaHit(call, result, index, results.length)), answer: null, billableUnits: 1, payload };
  },
};

/**
 * Exa bills a search by its type (`deep` dearer than the rest) and its page
 * contents per result and per kind (text, highlights, summary), subpages as
 * more pages: the gateway asks for the contents it bills within the query's
 * unit itself, so the client may pick the search type among those billed
 * alike, a category, a location and text filters, and nothing priced.
 * @see https://exa.ai/pricing
 */
function exaSearchOptions(): SearchOptionRules {
  const contents = 'Exa bills page contents per result and kind, beyond the one unit per query the gateway bills (include_raw_content asks for page text)';
  return {
    allowed: z.strictObject({
      type: z.enum(['auto', 'neural', 'keyword', 'fast'], { error: 'must be auto, neural, keyword or fast (Exa bills a deep search above the one unit per query the gateway bills)' }).optional(),
      category: z.enum(['company', 'research paper', 'news', 'pdf', 'github', 'tweet', 'personal site', 'linkedin profile', 'financial report']).optional(),
      userLocation: z.string().regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code').optional(),
      includeText: z.array(z.string().max(200)).max(1).optional(),
      excludeText: z.array(z.string().max(200)).max(1).optional(),
      moderation: z.boolean().optional(),
    }),
    priced: { contents, text: contents, highlights: contents, summary: contents, livecrawl: contents, livecrawlTimeout: contents, subpages: `${contents}; each subpage is one more page`, subpageTarget: contents, extras: contents },
  };
}

function exaHit(call: SearchCall, result: ExaResult, index: number, count: number): SearchHit {
  const highlights = (result.highlights ?? []).map((h) => h.trim()).filter(Boolean);
  const snippet = highlights.length ? highlights.join(' … ') : result.text ? clip(result.text, SNIPPET_CHARS) : (result.summary ?? '');
  return {
    title: result.title ?? '',
    url: result.url,
    snippet,
    content: call.includeRawContent ? (result.text ?? null) : null,
    published_at: publishedAt(result.publishedDate),
    score: result.score ?? rankScore(index, count),
    source: hostOf(result.url),
  };
}

/**
 * `{"requestId","error","tag"}`, the tag a machine-readable code.
 * @see https://exa.ai/docs/admin/error-codes
 */
function exaErrorText(json: unknown): SearchErrorText | undefined {
  const said = errorOrMessage(json);
  const tag = (json as { tag?: unknown } | null | undefined)?.tag;
  return said && typeof tag === 'string' ? { ...said, code: tag } : said;
}
