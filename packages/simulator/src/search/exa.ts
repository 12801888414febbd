import type { ServerResponse } from 'node:http';
import type { SimulatorContext } from '../context';
import { hashString } from '../deterministic-random';
import { protocolDirectiveGate } from '../directive-gate';
import { randomHexId } from '../ids';
import { hasBearerKey } from '../openai/auth';
import { jsonObjectBody } from '../request-body';
import type { Exchange, Route } from '../routing';
import { sendJson } from '../send';
import { fakePageAt } from './fake-page';
import { fakeSearch } from './fake-results';
import { integerOf, isIntegerIn, isStringList, setFields } from './field-checks';
import type { PublishedWindow } from './published-dates';
import { admitSearch } from './search-directives';

const SEARCH_TYPES = ['auto', 'fast', 'neural', 'deep', 'deep-lite', 'deep-reasoning', 'instant', 'keyword'];
const CATEGORIES = ['company', 'research paper', 'news', 'pdf', 'github', 'tweet', 'personal site', 'linkedin profile', 'financial report', 'people'];
const DEFAULT_NUM_RESULTS = 10;
const MAX_NUM_RESULTS = 100;
const MAX_CONTENTS_URLS = 100;
/** Exa's prices: a search of up to 25 results, one of more, and each page's text, highlights or summary. */
const SEARCH_PRICE = 0.005;
const LARGE_SEARCH_PRICE = 0.025;
const LARGE_SEARCH_FROM = 26;
const CONTENT_PRICE_PER_PAGE = 0.001;
const HIGHLIGHT_SENTENCES = 3;
const STATUS_TAGS: { [status: number]: string } = { 400: 'INVALID_REQUEST_BODY', 401: 'INVALID_API_KEY', 403: 'ACCESS_DENIED', 429: 'RATE_LIMIT_EXCEEDED' };

/** Exa's error shape: `{"requestId", "error": "...", "tag": "..."}`; exa-py surfaces the raw body. */
function sendExaError(res: ServerResponse, status: number, error: string, code?: string, retryAfterSeconds?: number): void {
  const body = { requestId: randomHexId('', 32), error, tag: code ?? STATUS_TAGS[status] ?? 'INTERNAL_ERROR' };
  sendJson(res, status, body, retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) });
}

const passExaDirectiveGate = protocolDirectiveGate((res, failure) => sendExaError(res, failure.status, `Simulated failure (${failure.status}).`, failure.code, failure.retryAfterSeconds));

/**
 * Exa's `POST /search` and `POST /contents` (served under `/exa`), camelCase
 * on the wire: `numResults` results (10 by default, at most 100), page text,
 * highlights and summaries only when `contents` asks, `costDollars` priced
 * as Exa prices. Any non-empty `x-api-key` (or bearer key) passes.
 * @see https://docs.exa.ai/reference/search
 */
export function exaRoutes(context: SimulatorContext): Route[] {
  return [
    { method: 'POST', path: /^\/exa\/search$/, handle: (exchange) => handleExaSearch(context, exchange) },
    { method: 'POST', path: /^\/exa\/contents$/, handle: (exchange) => handleExaContents(context, exchange) },
  ];
}

interface ContentsRequest {
  text?: unknown;
  highlights?: unknown;
  summary?: unknown;
}

interface ExaSearchRequest {
  query?: unknown;
  type?: unknown;
  numResults?: unknown;
  includeDomains?: unknown;
  excludeDomains?: unknown;
  startPublishedDate?: unknown;
  endPublishedDate?: unknown;
  category?: unknown;
  contents?: unknown;
}

async function handleExaSearch(context: SimulatorContext, exchange: Exchange): Promise<void> {
  const { res } = exchange;
  const request: ExaSearchRequest | undefined = readExaBody(exchange);
  if (!request) return;
  const problem = searchProblem(request) ?? contentsProblem((request.contents ?? {}) as ContentsRequest);
  if (problem) return sendExaError(res, 400, problem);
  const query = request.query as string;
  const directives = await admitSearch(context, exchange, 'exa', query, passExaDirectiveGate, (message) => sendExaError(res, 400, message));
  if (!directives) return;
  const now = new Date();
  const numResults = (request.numResults as number | undefined) ?? DEFAULT_NUM_RESULTS;
  const search = fakeSearch({
    query,
    count: numResults,
    news: request.category === 'news',
    includeDomains: request.includeDomains as string[] | undefined,
    excludeDomains: request.excludeDomains as string[] | undefined,
    published: publishedWindow(request, now),
    offsite: directives.offsite,
    now,
  });
  const contents = (request.contents ?? {}) as ContentsRequest;
  const resolvedSearchType = request.type === 'keyword' ? 'keyword' : 'neural';
  const searchPrice = numResults >= LARGE_SEARCH_FROM ? LARGE_SEARCH_PRICE : SEARCH_PRICE;
  sendJson(res, 200, {
    requestId: randomHexId('', 32),
    resolvedSearchType,
    results: search.results.map((result) => ({
      id: result.url,
      url: result.url,
      title: result.title,
      score: result.score,
      publishedDate: result.publishedAt?.toISOString() ?? null,
      author: result.author ?? null,
      favicon: `https://${result.host}/favicon.ico`,
      ...pageContents(result.text, contents),
    })),
    searchTime: Math.round((120 + (hashString(query) % 900) + 0.5) * 10) / 10,
    costDollars: costDollars({ [resolvedSearchType]: searchPrice }, search.results.length, contents),
  });
}

function searchProblem(request: ExaSearchRequest): string | undefined {
  if (typeof request.query !== 'string' || request.query.trim() === '') return 'Invalid request body | query: Required';
  if (request.type !== undefined && !SEARCH_TYPES.includes(request.type as string)) return `Invalid request body | type: Expected one of ${SEARCH_TYPES.join(', ')}`;
  if (request.numResults !== undefined && !isIntegerIn(request.numResults, 1, MAX_NUM_RESULTS)) {
    return `Invalid request body | numResults: Number must be an integer between 1 and ${MAX_NUM_RESULTS}`;
  }
  for (const field of ['includeDomains', 'excludeDomains'] as const) {
    if (request[field] !== undefined && !isStringList(request[field])) return `Invalid request body | ${field}: Expected array of strings`;
  }
  for (const field of ['startPublishedDate', 'endPublishedDate'] as const) {
    const value = request[field];
    if (value !== undefined && !(typeof value === 'string' && !Number.isNaN(Date.parse(value)))) return `Invalid request body | ${field}: Invalid ISO 8601 date`;
  }
  if (request.category !== undefined && !CATEGORIES.includes(request.category as string)) return `Invalid request body | category: Expected one of ${CATEGORIES.join(', ')}`;
  if (request.contents !== undefined && (typeof request.contents !== 'object' || request.contents === null || Array.isArray(request.contents))) {
    return 'Invalid request body | contents: Expected object';
  }
  return undefined;
}

/** `text`, `highlights` and `summary` are each `true`, `false` or an object of options. */
function contentsProblem(contents: ContentsRequest): string | undefined {
  for (const field of ['text', 'highlights', 'summary'] as const) {
    const value = contents[field];
    if (value !== undefined && typeof value !== 'boolean' && (typeof value !== 'object' || value === null || Array.isArray(value))) {
      return `Invalid request body | contents.${field}: Expected boolean or object`;
    }
  }
  return undefined;
}

function publishedWindow(request: ExaSearchRequest, now: Date): PublishedWindow | undefined {
  if (typeof request.startPublishedDate !== 'string' && typeof request.endPublishedDate !== 'string') return undefined;
  const to = typeof request.endPublishedDate === 'string' ? new Date(Math.min(now.getTime(), Date.parse(request.endPublishedDate))) : now;
  const from = typeof request.startPublishedDate === 'string' ? new Date(Date.parse(request.startPublishedDate)) : new Date(0);
  return { from, to };
}

/** The content fields one result gets: only those asked for. */
function pageContents(text: string, contents: ContentsRequest): object {
  const textOptions = optionsOf(contents.text);
  const highlightOptions = optionsOf(contents.highlights);
  const highlights = highlightOptions ? highlightsOf(text, integerOf(highlightOptions.maxCharacters)) : undefined;
  return {
    ...(textOptions ? { text: text.slice(0, integerOf(textOptions.maxCharacters) ?? text.length) } : {}),
    ...(highlights ? { highlights, highlightScores: highlights.map((_, index) => Math.round((0.9 - index * 0.1) * 1000) / 1000) } : {}),
    ...(optionsOf(contents.summary) ? { summary: text.split('\n\n')[1] ?? text } : {}),
  };
}

/** `true` or an options object means asked; the options, or `{}` for `true`. */
function optionsOf(value: unknown): { [option: string]: unknown } | undefined {
  if (value === true) return {};
  return typeof value === 'object' && value !== null ? (value as { [option: string]: unknown }) : undefined;
}

/** The page's first sentences after its title, each cut to `maxCharacters`. */
function highlightsOf(text: string, maxCharacters: number | undefined): string[] {
  const body = text.split('\n\n').slice(1).join(' ');
  const sentences = body.match(/[^.!?]+[.!?]/g) ?? [body];
  return sentences.slice(0, HIGHLIGHT_SENTENCES).map((sentence) => sentence.trim().slice(0, maxCharacters ?? sentence.length));
}

/** `{total, search: {neural}, contents: {text, highlights, summary}}`: the search and each kind of content asked, per page. */
function costDollars(search: { [type: string]: number } | undefined, pages: number, contents: ContentsRequest): object {
  const contentCosts: { [kind: string]: number } = {};
  for (const kind of ['text', 'highlights', 'summary'] as const) {
    if (optionsOf(contents[kind])) contentCosts[kind] = roundDollars(pages * CONTENT_PRICE_PER_PAGE);
  }
  const total = [...Object.values(search ?? {}), ...Object.values(contentCosts)].reduce((sum, cost) => sum + cost, 0);
  return {
    total: roundDollars(total),
    ...(search ? { search } : {}),
    ...(Object.keys(contentCosts).length > 0 ? { contents: contentCosts } : {}),
  };
}

function roundDollars(dollars: number): number {
  return Math.round(dollars * 1_000_000) / 1_000_000;
}

interface ExaContentsRequest extends ContentsRequest {
  ids?: unknown;
  urls?: unknown;
  contents?: unknown;
}

/**
 * `POST /contents`: the page of each of `urls` (or `ids`, which are URLs
 * in Exa), with its text unless only highlights or a summary are asked.
 * Options may sit at the top level or under `contents`. A URL that cannot
 * be fetched gets an error status and no result.
 */
async function handleExaContents(context: SimulatorContext, exchange: Exchange): Promise<void> {
  const { res } = exchange;
  const request: ExaContentsRequest | undefined = readExaBody(exchange);
  if (!request) return;
  const urls = request.urls ?? request.ids;
  if (!isStringList(urls) || urls.length === 0) return sendExaError(res, 400, 'Invalid request body | urls: Either urls or ids must be a non-empty array of strings');
  if (urls.length > MAX_CONTENTS_URLS) return sendExaError(res, 400, `Invalid request body | urls: At most ${MAX_CONTENTS_URLS} URLs`);
  const asked = { ...(typeof request.contents === 'object' && request.contents !== null ? (request.contents as ContentsRequest) : {}), ...definedOptions(request) };
  const problem = contentsProblem(asked);
  if (problem) return sendExaError(res, 400, problem);
  const contents = asked.text === undefined && asked.highlights === undefined && asked.summary === undefined ? { text: true } : asked;
  if (!(await admitSearch(context, exchange, 'exa', urls.join('\n'), passExaDirectiveGate, (message) => sendExaError(res, 400, message)))) return;
  const results: object[] = [];
  const statuses: object[] = [];
  for (const url of urls) {
    const page = fakePageAt(url);
    if (!page) {
      statuses.push({ id: url, status: 'error', error: { tag: 'CRAWL_NOT_FOUND', httpStatusCode: 404 } });
      continue;
    }
    statuses.push({ id: url, status: 'success' });
    results.push({ id: url, url, title: page.title, publishedDate: null, author: null, ...pageContents(page.text, contents) });
  }
  sendJson(res, 200, { requestId: randomHexId('', 32), results, statuses, costDollars: costDollars(undefined, results.length, contents) });
}

function definedOptions(request: ContentsRequest): ContentsRequest {
  return Object.fromEntries((['text', 'highlights', 'summary'] as const).filter((kind) => request[kind] !== undefined).map((kind) => [kind, request[kind]]));
}

/** The body's fields, or undefined once a missing key or a malformed body has been answered. */
function readExaBody(exchange: Exchange): { [field: string]: unknown } | undefined {
  const key = String(exchange.req.headers['x-api-key'] ?? '').trim();
  if (!key && !hasBearerKey(exchange.req)) return void sendExaError(exchange.res, 401, 'Invalid API key');
  const body = jsonObjectBody(exchange.body, {
    invalidJson: () => ({ status: 400, message: 'Invalid request body | Malformed JSON' }),
    tooLarge: () => ({ status: 413, message: 'Request body is too large' }),
  });
  if (!body.ok) return void sendExaError(exchange.res, body.error.status, body.error.message);
  return setFields(body.value);
}
