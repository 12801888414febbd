import type { ServerResponse } from 'node:http';
import type { SimulatorContext } from '../context';
import { protocolDirectiveGate } from '../directive-gate';
import { jsonObjectBody } from '../request-body';
import type { Exchange, Route } from '../routing';
import { sendJson } from '../send';
import { fakeSearch } from './fake-results';
import { integerOf, isIntegerIn, setFields } from './field-checks';
import { type TimeRange, relativeAge, windowForRange } from './published-dates';
import { admitSearch } from './search-directives';

const DEFAULT_NUM = 10;
const MAX_NUM = 100;
const TBS_RANGES: { [tbs: string]: TimeRange } = { 'qdr:d': 'day', 'qdr:w': 'week', 'qdr:m': 'month', 'qdr:y': 'year' };
const RELATED_SUFFIXES = ['explained', 'examples', 'alternatives', 'latest news'];

/** Serper's error shape: `{"message": "...", "statusCode": N}`. */
function sendSerperError(res: ServerResponse, status: number, message: string, retryAfterSeconds?: number): void {
  sendJson(res, status, { message, statusCode: status }, retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) });
}

const passSerperDirectiveGate = protocolDirectiveGate((res, failure) => sendSerperError(res, failure.status, `Simulated failure (${failure.status}).`, failure.retryAfterSeconds));

type SerperType = 'search' | 'news';

/**
 * Serper's Google results, `POST /search` and `POST /news` (served under
 * `/serper`): `num` results (10 by default, at most 100) of page `page`,
 * Google's `tbs=qdr:` time filters, one credit each. Any non-empty
 * `X-API-KEY` passes; none is a 403.
 * @see https://serper.dev/playground
 */
export function serperRoutes(context: SimulatorContext): Route[] {
  return (['search', 'news'] as const).map((type) => ({
    method: 'POST',
    path: new RegExp(`^/serper/${type}$`),
    handle: (exchange: Exchange) => handleSerper(context, exchange, type),
  }));
}

interface SerperRequest {
  q?: unknown;
  gl?: unknown;
  hl?: unknown;
  num?: unknown;
  page?: unknown;
  tbs?: unknown;
}

async function handleSerper(context: SimulatorContext, exchange: Exchange, type: SerperType): Promise<void> {
  const { res } = exchange;
  if (!String(exchange.req.headers['x-api-key'] ?? '').trim()) return sendSerperError(res, 403, 'Unauthorized.');
  const body = jsonObjectBody(exchange.body, { invalidJson: () => 400, tooLarge: () => 413 });
  if (!body.ok) return sendSerperError(res, body.error, body.error === 413 ? 'Request body is too large.' : 'Invalid JSON body.');
  const request: SerperRequest = setFields(body.value);
  const problem = requestProblem(request);
  if (problem) return sendSerperError(res, 400, problem);
  const q = request.q as string;
  const directives = await admitSearch(context, exchange, 'serper', q, passSerperDirectiveGate, (message) => sendSerperError(res, 400, message));
  if (!directives) return;
  const num = integerOf(request.num) ?? DEFAULT_NUM;
  const page = integerOf(request.page) ?? 1;
  const now = new Date();
  const tbs = typeof request.tbs === 'string' ? request.tbs : undefined;
  const search = fakeSearch({
    query: q,
    count: num,
    start: (page - 1) * num,
    news: type === 'news',
    published: tbs ? windowForRange(TBS_RANGES[tbs] as TimeRange, now) : undefined,
    offsite: directives.offsite,
    now,
  });
  const searchParameters = {
    q,
    gl: typeof request.gl === 'string' ? request.gl : 'us',
    hl: typeof request.hl === 'string' ? request.hl : 'en',
    type,
    num,
    ...(request.page !== undefined ? { page } : {}),
    ...(tbs ? { tbs } : {}),
    engine: 'google',
  };
  const position = (rank: number) => rank - (page - 1) * num;
  if (type === 'news') {
    const news = search.results.map((result) => ({
      title: result.title,
      link: result.url,
      snippet: result.snippet,
      date: relativeAge(result.publishedAt ?? now, now, 'short'),
      source: result.siteName,
      imageUrl: `https://${result.host}/images${result.path}.jpg`,
      position: position(result.position),
    }));
    return sendJson(res, 200, { searchParameters, news, credits: 1 });
  }
  const organic = search.results.map((result) => ({
    title: result.title,
    link: result.url,
    snippet: result.snippet,
    ...(result.publishedAt ? { date: relativeAge(result.publishedAt, now, 'short') } : {}),
    position: position(result.position),
  }));
  const relatedSearches = RELATED_SUFFIXES.map((suffix) => ({ query: `${search.topic} ${suffix}` }));
  sendJson(res, 200, { searchParameters, organic, relatedSearches, credits: 1 });
}

/** The first problem Serper would refuse the request for, or undefined. Numbers may come as JSON numbers or numeric strings. */
function requestProblem(request: SerperRequest): string | undefined {
  if (typeof request.q !== 'string' || request.q.trim() === '') return 'Missing query parameter: q.';
  if (request.num !== undefined && !isIntegerIn(integerOf(request.num), 1, MAX_NUM)) return `Invalid num: must be an integer between 1 and ${MAX_NUM}.`;
  if (request.page !== undefined && !isIntegerIn(integerOf(request.page), 1, Number.MAX_SAFE_INTEGER)) return 'Invalid page: must be a positive integer.';
  if (request.tbs !== undefined && !(typeof request.tbs === 'string' && request.tbs in TBS_RANGES)) return `Invalid tbs: must be one of ${Object.keys(TBS_RANGES).join(', ')}.`;
  for (const field of ['gl', 'hl'] as const) {
    if (request[field] !== undefined && typeof request[field] !== 'string') return `Invalid ${field}: must be a string.`;
  }
  return undefined;
}
