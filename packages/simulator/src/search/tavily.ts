import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { SimulatorContext } from '../context';
import { hashString } from '../deterministic-random';
import { protocolDirectiveGate } from '../directive-gate';
import { generateWords } from '../generated-text';
import { hasBearerKey } from '../openai/auth';
import { jsonObjectBody } from '../request-body';
import type { Exchange, Route } from '../routing';
import { sendJson } from '../send';
import { capitalize, fakePageAt } from './fake-page';
import { type FakeResult, fakeSearch } from './fake-results';
import { isIntegerIn, isStringList, setFields } from './field-checks';
import { type PublishedWindow, type TimeRange, lastDays, windowForRange } from './published-dates';
import { admitSearch } from './search-directives';

const SEARCH_DEPTHS = ['basic', 'advanced', 'fast', 'ultra-fast'];
const TOPICS = ['general', 'news', 'finance'];
const TIME_RANGES: { [value: string]: TimeRange } = { day: 'day', d: 'day', week: 'week', w: 'week', month: 'month', m: 'month', year: 'year', y: 'year' };
const DEFAULT_MAX_RESULTS = 5;
const MAX_RESULTS = 20;
const MAX_EXTRACT_URLS = 20;
const URLS_PER_EXTRACT_CREDIT = 5;
const IMAGES_PER_SEARCH = 3;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Tavily's error shape: `{"detail": {"error": "..."}}` with the HTTP status. */
function sendTavilyError(res: ServerResponse, status: number, error: string, retryAfterSeconds?: number): void {
  sendJson(res, status, { detail: { error } }, retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) });
}

const passTavilyDirectiveGate = protocolDirectiveGate((res, failure) => sendTavilyError(res, failure.status, `Simulated failure (${failure.status}).`, failure.retryAfterSeconds));

/**
 * Tavily's `POST /search` and `POST /extract` (served under `/tavily`). Any
 * non-empty bearer key passes. A search answers `max_results` results (5 by
 * default), dated for the news topic, with a written answer and page text
 * when asked, and reports credits (1 basic, 2 advanced) when
 * `include_usage` is set.
 * @see https://docs.tavily.com/documentation/api-reference/endpoint/search
 */
export function tavilyRoutes(context: SimulatorContext): Route[] {
  return [
    { method: 'POST', path: /^\/tavily\/search$/, handle: (exchange) => handleTavilySearch(context, exchange) },
    { method: 'POST', path: /^\/tavily\/extract$/, handle: (exchange) => handleTavilyExtract(context, exchange) },
  ];
}

interface TavilySearchRequest {
  query?: unknown;
  search_depth?: unknown;
  topic?: unknown;
  time_range?: unknown;
  days?: unknown;
  start_date?: unknown;
  end_date?: unknown;
  max_results?: unknown;
  include_answer?: unknown;
  include_raw_content?: unknown;
  include_images?: unknown;
  include_image_descriptions?: unknown;
  include_domains?: unknown;
  exclude_domains?: unknown;
  include_favicon?: unknown;
  include_usage?: unknown;
}

async function handleTavilySearch(context: SimulatorContext, exchange: Exchange): Promise<void> {
  const { res } = exchange;
  const request: TavilySearchRequest | undefined = readTavilyBody(exchange);
  if (!request) return;
  const problem = searchRequestProblem(request);
  if (problem) return sendTavilyError(res, 400, problem);
  const query = request.query as string;
  const directives = await admitSearch(context, exchange, 'tavily', query, passTavilyDirectiveGate, (message) => sendTavilyError(res, 400, message));
  if (!directives) return;
  const now = new Date();
  const news = request.topic === 'news';
  const search = fakeSearch({
    query,
    count: (request.max_results as number | undefined) ?? DEFAULT_MAX_RESULTS,
    news,
    includeDomains: request.include_domains as string[] | undefined,
    excludeDomains: request.exclude_domains as string[] | undefined,
    published: publishedWindow(request, now),
    offsite: directives.offsite,
    now,
  });
  const rawContent = request.include_raw_content === true || request.include_raw_content === 'markdown' ? 'markdown' : request.include_raw_content === 'text' ? 'text' : undefined;
  sendJson(res, 200, {
    query,
    answer: request.include_answer ? tavilyAnswer(search.topic, request.include_answer === 'advanced') : null,
    follow_up_questions: null,
    images: request.include_images === true ? tavilyImages(search.results, request.include_image_descriptions === true) : [],
    results: search.results.map((result) => ({
      title: result.title,
      url: result.url,
      content: result.snippet,
      score: result.score,
      raw_content: rawContent === undefined ? null : result[rawContent],
      ...(news && result.publishedAt ? { published_date: result.publishedAt.toUTCString() } : {}),
      ...(request.include_favicon === true ? { favicon: `https://${result.host}/favicon.ico` } : {}),
    })),
    response_time: responseTime(query),
    ...(request.include_usage === true ? { usage: { credits: request.search_depth === 'advanced' ? 2 : 1 } } : {}),
    request_id: randomUUID(),
  });
}

/** The first problem Tavily would refuse the search for, or undefined. */
function searchRequestProblem(request: TavilySearchRequest): string | undefined {
  if (typeof request.query !== 'string' || request.query.trim() === '') return 'Query is missing.';
  if (request.search_depth !== undefined && !SEARCH_DEPTHS.includes(request.search_depth as string)) {
    return `Invalid search depth. Must be one of: ${SEARCH_DEPTHS.join(', ')}.`;
  }
  if (request.topic !== undefined && !TOPICS.includes(request.topic as string)) return `Invalid topic. Must be one of: ${TOPICS.join(', ')}.`;
  if (request.time_range !== undefined && !(typeof request.time_range === 'string' && request.time_range in TIME_RANGES)) {
    return 'Invalid time range. Must be one of: day, week, month, year (or d, w, m, y).';
  }
  if (request.days !== undefined && !isIntegerIn(request.days, 1, Number.MAX_SAFE_INTEGER)) return 'Invalid days. Must be a positive integer.';
  for (const field of ['start_date', 'end_date'] as const) {
    const value = request[field];
    if (value !== undefined && !(typeof value === 'string' && DATE.test(value) && !Number.isNaN(Date.parse(value)))) {
      return `Invalid ${field}. Must be a date in the format YYYY-MM-DD.`;
    }
  }
  if (request.max_results !== undefined && !isIntegerIn(request.max_results, 0, MAX_RESULTS)) return `Invalid max_results. Must be between 0 and ${MAX_RESULTS}.`;
  if (![undefined, true, false, 'basic', 'advanced'].includes(request.include_answer as string)) {
    return "Invalid include_answer. Must be a boolean, 'basic' or 'advanced'.";
  }
  if (![undefined, true, false, 'markdown', 'text'].includes(request.include_raw_content as string)) {
    return "Invalid include_raw_content. Must be a boolean, 'markdown' or 'text'.";
  }
  for (const field of ['include_domains', 'exclude_domains'] as const) {
    if (request[field] !== undefined && !isStringList(request[field])) return `Invalid ${field}. Must be a list of domains.`;
  }
  return undefined;
}

/** `time_range` first, then `start_date`/`end_date`, then the older news-only `days`. */
function publishedWindow(request: TavilySearchRequest, now: Date): PublishedWindow | undefined {
  if (typeof request.time_range === 'string') return windowForRange(TIME_RANGES[request.time_range] as TimeRange, now);
  if (typeof request.start_date === 'string' || typeof request.end_date === 'string') {
    const to = typeof request.end_date === 'string' ? new Date(Math.min(now.getTime(), Date.parse(`${request.end_date}T23:59:59Z`))) : now;
    const from = typeof request.start_date === 'string' ? new Date(`${request.start_date}T00:00:00Z`) : lastDays(365, to).from;
    return { from, to };
  }
  if (request.topic === 'news' && typeof request.days === 'number') return lastDays(request.days, now);
  return undefined;
}

/** The answer Tavily writes from its results: a few sentences, more when `advanced`. */
function tavilyAnswer(topic: string, advanced: boolean): string {
  return `${capitalize(topic)}: ${generateWords(hashString(`answer\n${topic.toLowerCase()}`), advanced ? 90 : 35, 'page')}`;
}

function tavilyImages(results: readonly FakeResult[], withDescriptions: boolean): unknown[] {
  return results.slice(0, IMAGES_PER_SEARCH).map((result) => {
    const url = `https://${result.host}/images${result.path}.jpg`;
    return withDescriptions ? { url, description: result.snippet } : url;
  });
}

/** Seconds, as Tavily reports them: plausible, and the same for the same query. */
function responseTime(query: string): number {
  return Math.round((0.4 + (hashString(query) % 1200) / 1000) * 100) / 100;
}

interface TavilyExtractRequest {
  urls?: unknown;
  extract_depth?: unknown;
  format?: unknown;
  include_images?: unknown;
  include_favicon?: unknown;
  include_usage?: unknown;
  query?: unknown;
}

/**
 * `POST /extract`: the page text of each URL, in markdown or text. A URL no
 * one could fetch (see `fakePageAt`) lands in `failed_results`. Credits: 1
 * (basic) or 2 (advanced) per 5 extracted URLs.
 */
async function handleTavilyExtract(context: SimulatorContext, exchange: Exchange): Promise<void> {
  const { res } = exchange;
  const request: TavilyExtractRequest | undefined = readTavilyBody(exchange);
  if (!request) return;
  const urls = typeof request.urls === 'string' ? [request.urls] : request.urls;
  if (!isStringList(urls) || urls.length === 0) return sendTavilyError(res, 400, 'urls is missing.');
  if (urls.length > MAX_EXTRACT_URLS) return sendTavilyError(res, 400, `Too many URLs. At most ${MAX_EXTRACT_URLS} can be extracted at once.`);
  if (request.extract_depth !== undefined && request.extract_depth !== 'basic' && request.extract_depth !== 'advanced') {
    return sendTavilyError(res, 400, "Invalid extract depth. Must be 'basic' or 'advanced'.");
  }
  if (request.format !== undefined && request.format !== 'markdown' && request.format !== 'text') return sendTavilyError(res, 400, "Invalid format. Must be 'markdown' or 'text'.");
  const directiveText = typeof request.query === 'string' ? request.query : urls.join('\n');
  if (!(await admitSearch(context, exchange, 'tavily', directiveText, passTavilyDirectiveGate, (message) => sendTavilyError(res, 400, message)))) return;
  const results: unknown[] = [];
  const failed: unknown[] = [];
  for (const url of urls) {
    const page = fakePageAt(url);
    if (!page) {
      failed.push({ url, error: 'Failed to fetch url' });
      continue;
    }
    results.push({
      url,
      raw_content: request.format === 'text' ? page.text : page.markdown,
      ...(request.include_images === true ? { images: [] } : {}),
      ...(request.include_favicon === true ? { favicon: `${new URL(url).origin}/favicon.ico` } : {}),
    });
  }
  const credits = Math.ceil(results.length / URLS_PER_EXTRACT_CREDIT) * (request.extract_depth === 'advanced' ? 2 : 1);
  sendJson(res, 200, {
    results,
    failed_results: failed,
    response_time: responseTime(urls.join('\n')),
    ...(request.include_usage === true ? { usage: { credits } } : {}),
    request_id: randomUUID(),
  });
}

/** The body's fields, or undefined once a missing key or a malformed body has been answered. */
function readTavilyBody(exchange: Exchange): { [field: string]: unknown } | undefined {
  if (!hasBearerKey(exchange.req)) return void sendTavilyError(exchange.res, 401, 'Unauthorized: missing or invalid API key.');
  const body = jsonObjectBody(exchange.body, {
    invalidJson: () => ({ status: 400, message: 'Request body is not valid JSON.' }),
    tooLarge: () => ({ status: 413, message: 'Request body is too large.' }),
  });
  if (!body.ok) return void sendTavilyError(exchange.res, body.error.status, body.error.message);
  return setFields(body.value);
}
