import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { SimulatorContext } from '../context';
import { protocolDirectiveGate } from '../directive-gate';
import type { Exchange, Route } from '../routing';
import { sendJson } from '../send';
import { type FakeResult, fakeSearch } from './fake-results';
import { integerOf, isIntegerIn } from './field-checks';
import { type PublishedWindow, type TimeRange, isoSeconds, relativeAge, windowForRange } from './published-dates';
import { admitSearch } from './search-directives';

type BraveEndpoint = 'web' | 'news';

const MAX_QUERY_CHARACTERS = 400;
const MAX_COUNT: { [endpoint in BraveEndpoint]: number } = { web: 20, news: 50 };
const DEFAULT_COUNT = 20;
const MAX_OFFSET = 9;
const FRESHNESS: { [value: string]: TimeRange } = { pd: 'day', pw: 'week', pm: 'month', py: 'year' };
const FRESHNESS_RANGE = /^(\d{4}-\d{2}-\d{2})to(\d{4}-\d{2}-\d{2})$/;
const SAFESEARCH = ['off', 'moderate', 'strict'];
const BOOLEANS = ['true', 'false', '1', '0'];
const EXTRA_SNIPPETS = 3;
const STATUS_CODES: { [status: number]: string } = { 401: 'SUBSCRIPTION_TOKEN_INVALID', 403: 'OPTION_NOT_IN_PLAN', 422: 'VALIDATION', 429: 'RATE_LIMITED' };

/** Brave's error shape: `{"type": "ErrorResponse", "error": {id, status, code, detail, meta}, "time"}`. */
function sendBraveError(res: ServerResponse, status: number, code: string, detail: string, meta: object = {}, retryAfterSeconds?: number): void {
  const body = { type: 'ErrorResponse', error: { id: randomUUID(), status, code, detail, meta }, time: Math.floor(Date.now() / 1000) };
  sendJson(res, status, body, retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) });
}

/** A parameter Brave cannot read: 422 `VALIDATION`, the parameter named in `meta.errors` as FastAPI names it. */
function sendBraveValidationError(res: ServerResponse, parameter: string, message: string, input: unknown): void {
  sendBraveError(res, 422, 'VALIDATION', 'Unable to validate request parameter(s)', { errors: [{ type: 'value_error', loc: ['query', parameter], msg: message, input }] });
}

const passBraveDirectiveGate = protocolDirectiveGate((res, failure) =>
  sendBraveError(res, failure.status, failure.code ?? STATUS_CODES[failure.status] ?? 'INTERNAL_ERROR', `Simulated failure (${failure.status}).`, {}, failure.retryAfterSeconds),
);

/**
 * The Brave Search API's `GET /res/v1/web/search` and
 * `GET /res/v1/news/search` (served under `/brave`), parameters in the
 * query string: `count` results (20 by default; at most 20 for web, 50 for
 * news) of page `offset`, `freshness` as a period or a date range. A
 * missing or empty `X-Subscription-Token` is a 422, as Brave answers it,
 * and so are unreadable parameters (`VALIDATION`). Descriptions carry
 * Brave's `<strong>` decorations unless `text_decorations=false`.
 * @see https://api-dashboard.search.brave.com/app/documentation/web-search/query
 */
export function braveRoutes(context: SimulatorContext): Route[] {
  return (['web', 'news'] as const).map((endpoint) => ({
    method: 'GET',
    path: new RegExp(`^/brave/res/v1/${endpoint}/search$`),
    handle: (exchange: Exchange) => handleBrave(context, exchange, endpoint),
  }));
}

interface BraveParams {
  q: string;
  count: number;
  offset: number;
  published: PublishedWindow | undefined;
  extraSnippets: boolean;
  decorations: boolean;
  language: string;
  country: string;
}

async function handleBrave(context: SimulatorContext, exchange: Exchange, endpoint: BraveEndpoint): Promise<void> {
  const { res } = exchange;
  if (!String(exchange.req.headers['x-subscription-token'] ?? '').trim()) {
    return sendBraveError(res, 422, 'SUBSCRIPTION_TOKEN_INVALID', 'The provided subscription token is invalid.');
  }
  const now = new Date();
  const params = readParams(res, exchange.query, endpoint, now);
  if (!params) return;
  const directives = await admitSearch(context, exchange, 'brave', params.q, passBraveDirectiveGate, (message) => sendBraveValidationError(res, 'q', message, params.q));
  if (!directives) return;
  const search = fakeSearch({
    query: params.q,
    count: params.count,
    start: params.offset * params.count,
    news: endpoint === 'news',
    published: params.published,
    offsite: directives.offsite,
    now,
  });
  const results = search.results.map((result) => braveResult(result, search.topic, params, now));
  if (endpoint === 'news') {
    return sendJson(res, 200, {
      type: 'news',
      query: { original: params.q, spellcheck_off: true, show_strict_warning: false },
      results: results.map((result) => ({ type: 'news_result', ...result, breaking: false })),
    });
  }
  sendJson(res, 200, {
    type: 'search',
    query: { original: params.q, show_strict_warning: false, is_navigational: false, is_news_breaking: false, spellcheck_off: true, country: params.country, bad_results: false, should_fallback: false, more_results_available: false },
    mixed: { type: 'mixed', main: results.map((_, index) => ({ type: 'web', index, all: false })), top: [], side: [] },
    web: {
      type: 'search',
      results: results.map((result) => ({ type: 'search_result', subtype: 'generic', ...result, language: params.language, is_source_local: false, is_source_both: false })),
      family_friendly: true,
    },
  });
}

/** The fields web and news results share. */
function braveResult(result: FakeResult, topic: string, params: BraveParams, now: Date): object {
  return {
    title: result.title,
    url: result.url,
    description: params.decorations ? decorate(result.snippet, topic) : result.snippet,
    ...(result.publishedAt ? { age: relativeAge(result.publishedAt, now, 'long'), page_age: isoSeconds(result.publishedAt) } : {}),
    profile: { name: result.siteName, url: `https://${result.host}/`, long_name: result.host, img: `https://${result.host}/favicon.ico` },
    family_friendly: true,
    is_live: false,
    meta_url: { scheme: 'https', netloc: result.host, hostname: result.host, favicon: `https://${result.host}/favicon.ico`, path: result.path.split('/').join(' › ').trim() },
    thumbnail: { src: `https://${result.host}/images${result.path}.jpg`, original: `https://${result.host}/images${result.path}.jpg` },
    ...(params.extraSnippets ? { extra_snippets: extraSnippets(result.text) } : {}),
  };
}

/** The query parameters, or undefined once the first unreadable one has been answered. */
function readParams(res: ServerResponse, query: URLSearchParams, endpoint: BraveEndpoint, now: Date): BraveParams | undefined {
  const q = query.get('q') ?? '';
  if (q.trim() === '') return void sendBraveValidationError(res, 'q', 'Field required', q);
  if ([...q].length > MAX_QUERY_CHARACTERS) return void sendBraveValidationError(res, 'q', `String should have at most ${MAX_QUERY_CHARACTERS} characters`, q);
  const count = integerOf(query.get('count') ?? String(DEFAULT_COUNT));
  if (!isIntegerIn(count, 1, MAX_COUNT[endpoint])) return void sendBraveValidationError(res, 'count', `Input should be between 1 and ${MAX_COUNT[endpoint]}`, query.get('count'));
  const offset = integerOf(query.get('offset') ?? '0');
  if (!isIntegerIn(offset, 0, MAX_OFFSET)) return void sendBraveValidationError(res, 'offset', `Input should be between 0 and ${MAX_OFFSET}`, query.get('offset'));
  const freshness = query.get('freshness');
  const published = freshness ? freshnessWindow(freshness, now) : undefined;
  if (freshness && !published) return void sendBraveValidationError(res, 'freshness', 'Input should be pd, pw, pm, py or a range YYYY-MM-DDtoYYYY-MM-DD', freshness);
  const safesearch = query.get('safesearch');
  if (safesearch !== null && !SAFESEARCH.includes(safesearch)) return void sendBraveValidationError(res, 'safesearch', `Input should be ${SAFESEARCH.join(', ')}`, safesearch);
  for (const name of ['extra_snippets', 'text_decorations', 'spellcheck']) {
    const value = query.get(name);
    if (value !== null && !BOOLEANS.includes(value)) return void sendBraveValidationError(res, name, 'Input should be a valid boolean', value);
  }
  return {
    q,
    count,
    offset,
    published,
    extraSnippets: isTrue(query.get('extra_snippets')),
    decorations: !['false', '0'].includes(query.get('text_decorations') ?? 'true'),
    language: query.get('search_lang') ?? 'en',
    country: (query.get('country') ?? 'us').toLowerCase(),
  };
}

/** `pd|pw|pm|py`, or `2026-01-01to2026-02-01`; undefined for anything else. */
function freshnessWindow(freshness: string, now: Date): PublishedWindow | undefined {
  const period = FRESHNESS[freshness];
  if (period) return windowForRange(period, now);
  const range = FRESHNESS_RANGE.exec(freshness);
  if (!range) return undefined;
  const from = Date.parse(`${range[1]}T00:00:00Z`);
  const to = Date.parse(`${range[2]}T23:59:59Z`);
  if (Number.isNaN(from) || Number.isNaN(to) || from > to) return undefined;
  return { from: new Date(from), to: new Date(Math.min(to, now.getTime())) };
}

/** Brave's default `text_decorations`: the query's words in bold. */
function decorate(text: string, topic: string): string {
  const words = topic.split(/\s+/).filter((word) => /^\w+$/.test(word));
  if (words.length === 0) return text;
  return text.replace(new RegExp(`\\b(${words.join('|')})\\b`, 'gi'), '<strong>$1</strong>');
}

/** Up to three more passages of the page: its paragraphs after the title and snippet. */
function extraSnippets(text: string): string[] {
  return text.split('\n\n').slice(2, 2 + EXTRA_SNIPPETS);
}

function isTrue(value: string | null): boolean {
  return value === 'true' || value === '1';
}
