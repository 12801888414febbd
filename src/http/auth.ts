import { timingSafeEqual, createHash } from 'node:crypto';
import type { KeyAuthenticator } from '../keys/key-authenticator';
import type { Principal } from '../keys/principal';
import { Errors } from '../errors/errors';
import type { HttpRequest, HttpResponse, Next } from './http-types';
import { locals } from './request-locals';

export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * The API key a request carries, in the header its client's dialect uses:
 * `Authorization: Bearer` (OpenAI's SDKs, and Anthropic's current SDK),
 * `x-api-key` (Anthropic's documented header) or `x-goog-api-key` (the
 * Google Gen AI SDK), else Gemini's `?key=` query parameter on the Gemini
 * paths (`/v1beta/`) only, where its clients put it. The query string is
 * never logged or traced (`requestPath`).
 */
export function apiKeyOf(req: HttpRequest): string | undefined {
  const h = req.headers;
  const token = bearerToken(h.authorization) ?? headerValue(h['x-api-key']) ?? headerValue(h['x-goog-api-key']);
  if (token !== undefined || !req.url?.startsWith(GEMINI_PATH_PREFIX)) return token;
  const q = req.url.indexOf('?');
  return q === -1 ? undefined : (new URLSearchParams(req.url.slice(q + 1)).get('key')?.trim() || undefined);
}

/** Where Gemini's dialect is served, the only paths that read a key from the query string. */
const GEMINI_PATH_PREFIX = '/v1beta/';

function headerValue(value: string | string[] | undefined): string | undefined {
  const one = Array.isArray(value) ? value[0] : value;
  const trimmed = one?.trim();
  return trimmed ? trimmed : undefined;
}

/** Resolves the request's API key (`apiKeyOf`) to a principal, or answers 401 (429 for an address sending invalid keys). */
export function requireApiKey(keys: KeyAuthenticator) {
  return (req: HttpRequest, res: HttpResponse, next: Next): void => {
    const token = apiKeyOf(req);
    if (!token) return next(Errors.missingApiKey());
    const admit = (principal: Principal | null) => {
      if (!principal) return next(Errors.invalidApiKey());
      locals(res).principal = principal;
      next();
    };
    // A key seen lately is admitted without waiting a turn.
    const known = keys.cachedValid(token);
    if (known) return admit(known);
    keys.authenticate(token, clientAddress(req)).then(admit, next);
  };
}

/** The peer address of the connection, whose failed key checks are counted together. */
export function clientAddress(req: Pick<HttpRequest, 'socket'>): string {
  return req.socket.remoteAddress ?? 'unknown';
}

/** The operator's admin token (GATEWAY_ADMIN_TOKEN), compared in constant time. */
export function requireAdminToken(adminToken: string | undefined) {
  const expected = adminToken ? digest(adminToken) : undefined;
  return (req: HttpRequest, _res: HttpResponse, next: Next): void => {
    if (!expected) return next(Errors.adminDisabled());
    const token = bearerToken(req.headers.authorization);
    if (!token || !timingSafeEqual(digest(token), expected)) return next(Errors.invalidAdminToken());
    next();
  };
}

/**
 * `/metrics` on the public listener: its labels name providers, models and
 * accounts, so it answers only a bearer token among `tokens` (the metrics
 * token, the admin token), compared in constant time; with none configured,
 * no one on this port.
 */
export function requireMetricsToken(tokens: ReadonlyArray<string | undefined>) {
  const expected = tokens.filter((t): t is string => Boolean(t)).map(digest);
  return (req: HttpRequest, _res: HttpResponse, next: Next): void => {
    const token = bearerToken(req.headers.authorization);
    const given = token ? digest(token) : undefined;
    // Every token is compared, so the time taken does not tell which one nearly matched.
    const matches = expected.filter((e) => given !== undefined && timingSafeEqual(given, e)).length;
    if (!matches) return next(Errors.metricsTokenRequired());
    next();
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
