import type { z } from 'zod';
import { Deadline } from '../../deadlines/deadline';
import { readBodyText, sendUpstream, toUpstreamError } from '../http-client';
import { parseJsonOrUndefined } from '../parse-json';
import { isRetryableStatus, parseRetryAfter, UpstreamError } from '../upstream-error';
import type { SearchCall } from './search-adapter';
import { clip, plainText } from './search-hits';

/** A search answer is one page of results; anything bigger is not one. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/**
 * Statuses under which backends refuse the operator's key or plan (Brave
 * answers a bad key with 422): another backend, with its own key, may still
 * answer, so these are retryable although they would blame the client
 * elsewhere.
 */
const CREDENTIAL_STATUSES: readonly number[] = [401, 403, 422];

/** What a backend said in an error answer, in its own words. */
export interface SearchErrorText {
  message?: string;
  code?: string;
}

/**
 * The `error` or `message` string of a JSON error body, the two names most
 * APIs and proxies use. Where an adapter's reader finds nothing, the body is
 * quoted as plain text.
 */
export function errorOrMessage(json: unknown): SearchErrorText | undefined {
  const body = json as { error?: unknown; message?: unknown } | null | undefined;
  const message = typeof body?.error === 'string' ? body.error : typeof body?.message === 'string' ? body.message : undefined;
  return message ? { message } : undefined;
}

/** One call to a search backend, as an adapter describes it. */
export interface SearchExchange<T> {
  call: SearchCall;
  method: 'GET' | 'POST';
  /** Under the backend's base URL: `/search`. */
  path: string;
  /**
   * The request fields the gateway decided (query parameters for GET, the
   * JSON body for POST). They go over the client's `provider_options`, so
   * the client can add fields but never replace these; one set to undefined
   * removes the client's value (a domain filter the gateway leaves empty).
   */
  fields: Record<string, unknown>;
  /** The protocol's own headers (its credential); the backend's configured headers go over them. */
  headers: Record<string, string>;
  /** The answer's wire shape; an answer outside it is malformed. */
  answer: z.ZodType<T>;
  /** The backend's words in an error body (`json` is the parsed body, undefined when it is not JSON); undefined quotes the body as text. */
  errorText: (json: unknown) => SearchErrorText | undefined;
  /** Statuses beyond 401, 403 and 422 by which this protocol refuses a key or plan (Tavily: 432, 433). */
  credentialStatuses?: readonly number[];
}

export interface SearchExchangeResult<T> {
  answer: T;
  /** The answer as parsed from JSON, before any reading: what the backend sent. */
  payload: unknown;
}

/**
 * Calls a search backend once and reads its JSON answer. `timeoutMs` bounds
 * the whole call, from connecting to the last byte of the answer, not only
 * the silences between bytes: a search is one short answer, and a backend
 * that trickles it out is as useless as one that says nothing. An abort by
 * the caller rejects with the abort itself, as `toUpstreamError` does: that
 * is not the backend's failure.
 */
export async function exchangeSearch<T>(exchange: SearchExchange<T>): Promise<SearchExchangeResult<T>> {
  const { backend } = exchange.call;
  const { status, retryAfter, text } = await receive(exchange);
  if (status >= 400) throw searchHttpError(exchange, status, retryAfter, text);
  const payload = parseJsonOrUndefined(text);
  const parsed = exchange.answer.safeParse(payload);
  if (!parsed.success) {
    const why = payload === undefined ? 'it is not JSON' : clip(parsed.error.message, 300);
    throw new UpstreamError(`${backend.name} sent an answer that is not a ${backend.type} search answer: ${why}`, {
      status: 502,
      retryable: true,
      cause: 'malformed_answer',
    });
  }
  return { answer: parsed.data, payload };
}

/** Sends the request and reads the whole answer within the backend's time limit. */
async function receive(exchange: SearchExchange<unknown>): Promise<{ status: number; retryAfter: string | string[] | undefined; text: string }> {
  const { backend, signal } = exchange.call;
  const fields = { ...exchange.call.providerOptions, ...exchange.fields };
  const post = exchange.method === 'POST';
  const deadline = new Deadline(backend.timeoutMs, [signal]);
  const either = deadline.signal;
  try {
    const res = await sendUpstream({
      method: exchange.method,
      url: searchUrl(backend.baseUrl, exchange.path, post ? undefined : fields),
      headers: { accept: 'application/json', ...(post ? { 'content-type': 'application/json' } : {}), ...exchange.headers, ...backend.headers },
      body: post ? JSON.stringify(fields) : undefined,
      signal: either,
      span: exchange.call.span,
      timeoutMs: backend.timeoutMs,
    });
    const text = await readBodyText(res.body, MAX_ANSWER_BYTES);
    either.throwIfAborted(); // a body cut short by the abort is no answer
    return { status: res.status, retryAfter: res.headers['retry-after'], text };
  } catch (err) {
    if (signal.aborted) throw err;
    if (deadline.expired || (err instanceof UpstreamError && err.details.cause === 'timeout')) {
      throw new UpstreamError(`${backend.name} did not answer within ${backend.timeoutMs} ms`, { status: 0, retryable: true, cause: 'timeout' });
    }
    const failure = toUpstreamError(err);
    throw failure instanceof UpstreamError ? new UpstreamError(`${backend.name}: ${failure.message}`, failure.details) : failure;
  } finally {
    deadline.clear();
  }
}

/**
 * A backend's URL: its base (with or without a trailing slash), the path,
 * and for GET the fields as query parameters. Lists are written
 * comma-separated, as SearXNG's `engines` and Brave's `result_filter` take
 * them; undefined and null fields are left out.
 */
export function searchUrl(baseUrl: string, path: string, params?: Record<string, unknown>): string {
  const url = `${baseUrl.replace(/\/+$/, '')}${path}`;
  if (!params) return url;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    query.set(name, Array.isArray(value) ? value.join(',') : typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const written = query.toString();
  return written ? `${url}?${written}` : url;
}

/**
 * An HTTP error answer, quoting the backend. Refused keys and plans are
 * retryable (`credential_refused`): one backend's bad key must not fail a
 * search another backend can serve. 400 is the request's fault and is not.
 */
function searchHttpError(exchange: SearchExchange<unknown>, status: number, retryAfter: string | string[] | undefined, text: string): UpstreamError {
  const { backend } = exchange.call;
  const said = exchange.errorText(parseJsonOrUndefined(text));
  const message = clip(said?.message?.trim() || plainText(text), 300);
  const refused = CREDENTIAL_STATUSES.includes(status) || (exchange.credentialStatuses ?? []).includes(status);
  return new UpstreamError(`${backend.name} answered HTTP ${status}${message ? `: ${message}` : ''}`, {
    status,
    retryable: refused || isRetryableStatus(status),
    retryAfterSeconds: parseRetryAfter(retryAfter),
    code: said?.code ?? null,
    ...(refused ? { cause: 'credential_refused' as const } : {}),
  });
}
