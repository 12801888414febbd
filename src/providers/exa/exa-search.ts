import { z } from 'zod';
import type { SearchAdapter, SearchCall, SearchHit } from '../search/search-adapter';
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
 * for; page text only when raw content is wanted. The client's own
 * `contents` options (a `summary`, say) are kept beside these. One unit per
 * query.
 * @see https://docs.exa.ai/reference/search
 */
export const exaSearchAdapter: SearchAdapter = {
  type: 'exa',
  capabilities: { answer: false, advancedDepth: false, rawContent: true, region: false, language: false, timeRange: true },
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
          ...clientContents(call),
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

function clientContents(call: SearchCall): Record<string, unknown> {
  const contents = call.providerOptions?.contents;
  return contents && typeof contents === 'object' && !Array.isArray(contents) ? (contents as Record<string, unknown>) : {};
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
