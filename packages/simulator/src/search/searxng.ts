import type { ServerResponse } from 'node:http';
import type { SimulatorContext } from '../context';
import { hashString } from '../deterministic-random';
import { protocolDirectiveGate } from '../directive-gate';
import type { Exchange, Route } from '../routing';
import { sendBody, sendJson } from '../send';
import { fakeSearch } from './fake-results';
import { integerOf } from './field-checks';
import { readFormOrJsonBody } from './form-body';
import { type TimeRange, isoSeconds, windowForRange } from './published-dates';
import { admitSearch } from './search-directives';

const RESULTS_PER_PAGE = 10;
const TIME_RANGES: readonly string[] = ['day', 'week', 'month', 'year'] satisfies TimeRange[];
const SAFESEARCH_LEVELS = ['0', '1', '2'];
const GENERAL_ENGINES = ['duckduckgo', 'brave', 'startpage', 'wikipedia', 'qwant'];
const NEWS_ENGINES = ['bing news', 'duckduckgo news', 'yahoo news', 'reuters'];

/** What Flask answers for `abort(403)`: SearXNG's reply to a `format` its settings do not enable. */
const FORBIDDEN_PAGE =
  '<!doctype html>\n<html lang=en>\n<title>403 Forbidden</title>\n<h1>Forbidden</h1>\n' +
  "<p>You don't have the permission to access the requested resource. It is either read-protected or not readable by the server.</p>\n";

/** SearXNG's error for a JSON request it cannot run (`index_error`): `{"error": "..."}`. */
function sendSearxngError(res: ServerResponse, status: number, error: string, retryAfterSeconds?: number): void {
  sendJson(res, status, { error }, retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) });
}

const passSearxngDirectiveGate = protocolDirectiveGate((res, failure) => sendSearxngError(res, failure.status, `Simulated failure (${failure.status}).`, failure.retryAfterSeconds));

/**
 * A SearXNG instance's `/search` (and `/`), served under `/searxng`: GET with
 * query parameters, or POST with a form; parameters in both, the form's
 * winning, as Flask merges them. Only `format=json` is enabled, as on an
 * instance set up for API use: any other format, the HTML default included,
 * is a 403. No key. Ten results a page, from a few named engines.
 * @see https://docs.searxng.org/dev/search_api.html
 */
export function searxngRoutes(context: SimulatorContext): Route[] {
  const path = /^\/searxng(?:\/search)?\/?$/;
  const handle = (exchange: Exchange) => handleSearxng(context, exchange);
  return [
    { method: 'GET', path, handle },
    { method: 'POST', path, readBody: readFormOrJsonBody, handle },
  ];
}

async function handleSearxng(context: SimulatorContext, exchange: Exchange): Promise<void> {
  const { res } = exchange;
  if (exchange.body.kind === 'invalid_json' || exchange.body.kind === 'too_large') return sendSearxngError(res, 400, 'Invalid request body');
  const params = { ...Object.fromEntries(exchange.query), ...stringFields(exchange.body.kind === 'json' ? exchange.body.value : undefined) };
  if (params.format !== 'json') return sendBody(res, 403, { 'content-type': 'text/html; charset=utf-8' }, FORBIDDEN_PAGE);
  const q = params.q ?? '';
  if (q.trim() === '') return sendSearxngError(res, 400, 'No query');
  const pageno = integerOf(params.pageno ?? '1');
  if (pageno === undefined || pageno < 1) return sendSearxngError(res, 400, invalidValue('pageno', params.pageno));
  const timeRange = params.time_range ?? '';
  if (timeRange !== '' && !TIME_RANGES.includes(timeRange)) return sendSearxngError(res, 400, invalidValue('time_range', timeRange));
  if (params.safesearch !== undefined && params.safesearch !== '' && !SAFESEARCH_LEVELS.includes(params.safesearch)) {
    return sendSearxngError(res, 400, invalidValue('safesearch', params.safesearch));
  }
  const directives = await admitSearch(context, exchange, 'searxng', q, passSearxngDirectiveGate, (message) => sendSearxngError(res, 400, message));
  if (!directives) return;
  const news = (params.categories ?? '').split(',').some((category) => category.trim() === 'news');
  const now = new Date();
  const search = fakeSearch({
    query: q,
    count: RESULTS_PER_PAGE,
    start: (pageno - 1) * RESULTS_PER_PAGE,
    news,
    published: timeRange ? windowForRange(timeRange as TimeRange, now) : undefined,
    offsite: directives.offsite,
    now,
  });
  const results = search.results.map((result) => {
    const engines = enginesFor(result.url, news ? NEWS_ENGINES : GENERAL_ENGINES);
    const position = result.position - (pageno - 1) * RESULTS_PER_PAGE;
    return {
      url: result.url,
      title: result.title,
      content: result.snippet,
      engine: engines[0],
      engines,
      score: Math.round(result.score * engines.length * 1000) / 1000,
      category: news ? 'news' : 'general',
      positions: engines.map(() => position),
      parsed_url: ['https', result.host, result.path, '', '', ''],
      template: 'default.html',
      ...(result.publishedAt ? { publishedDate: isoSeconds(result.publishedAt) } : {}),
    };
  });
  sendJson(res, 200, {
    query: q,
    number_of_results: results.length === 0 ? 0 : 1000 + (hashString(search.topic) % 900_000),
    results,
    answers: [],
    corrections: [],
    infoboxes: [],
    suggestions: [],
    unresponsive_engines: [],
  });
}

/** One to three engines that "found" the result, the same ones every time. */
function enginesFor(url: string, engines: readonly string[]): string[] {
  const seed = hashString(url);
  const first = seed % engines.length;
  return Array.from({ length: 1 + (seed % 3) }, (_, index) => engines[(first + index) % engines.length] as string);
}

/** The message of SearXNG's `SearxParameterException`. */
function invalidValue(parameter: string, value: string | undefined): string {
  return `Invalid value "${value ?? ''}" for parameter ${parameter}`;
}

/** A form or JSON body's fields as strings, as Flask's `request.form` gives them. */
function stringFields(value: unknown): { [name: string]: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== null && field !== undefined).map(([name, field]) => [name, String(field)]));
}
