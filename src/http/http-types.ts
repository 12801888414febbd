import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The request and response as the gateway's own middlewares see them: Node's
 * objects plus the two fields they share with express (`body`, `locals`).
 * Middlewares typed this way run both inside express and in the direct
 * routes, which dispatch before express (see direct-routes.ts).
 */
export type HttpRequest = IncomingMessage & { body?: unknown };
export type HttpResponse = ServerResponse & { locals?: Record<string, unknown> };
export type Next = (err?: unknown) => void;
export type Middleware = (req: HttpRequest, res: HttpResponse, next: Next) => unknown;
export type ErrorMiddleware = (err: unknown, req: HttpRequest, res: HttpResponse, next: Next) => unknown;

/** The path of a request without its query string (express's `req.path`). */
export function requestPath(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
