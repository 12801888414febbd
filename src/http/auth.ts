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

/** Resolves `Authorization: Bearer <API_KEY>` to a principal, or answers 401 (429 for an address sending invalid keys). */
export function requireApiKey(keys: KeyAuthenticator) {
  return (req: HttpRequest, res: HttpResponse, next: Next): void => {
    const token = bearerToken(req.headers.authorization);
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
