import type { RequestListener } from 'node:http';
import type { ErrorMiddleware, HttpRequest, HttpResponse, Middleware, Next } from './http-types';
import { methodNotAllowed } from './method-not-allowed';

/**
 * An endpoint served before express: one exact path, its handlers by method.
 * The model-call endpoints live here because express's per-request set-up
 * (prototype swaps on req and res, the router's layer walk) cost more CPU
 * than the whole rest of the gateway's work on a request. They run the same
 * middlewares as express routes (request id, access log, overload guard,
 * API key, error envelope), through `runChain`.
 */
export interface DirectRoute {
  path: string;
  methods: Partial<Record<'GET' | 'POST' | 'DELETE', Middleware[]>>;
}

/**
 * A request listener that serves the direct routes and hands every other
 * request to `fallback` (the express app). Paths match exactly, ignoring
 * case, the query string and one trailing slash, as express's router does;
 * an absolute-form request target matches by its path.
 */
export function directRoutes(routes: DirectRoute[], before: Middleware[], onError: ErrorMiddleware, fallback: RequestListener): RequestListener {
  const table = new Map<string, { path: string; byMethod: Map<string, (req: HttpRequest, res: HttpResponse) => void> }>();
  for (const route of routes) {
    const byMethod = new Map<string, (req: HttpRequest, res: HttpResponse) => void>();
    for (const [method, handlers] of Object.entries(route.methods)) byMethod.set(method, runChain([...before, ...handlers!], onError));
    byMethod.set('*', runChain([...before, methodNotAllowed(Object.keys(route.methods))], onError));
    table.set(route.path.toLowerCase(), { path: route.path, byMethod });
  }
  return (req, res: HttpResponse) => {
    const route = table.get(normalizedPath(req.url ?? '/'));
    if (!route) return fallback(req, res);
    // The route's label for the access log and metrics (express requests take it from `req.route`).
    res.locals = { route: route.path };
    (route.byMethod.get(req.method ?? '') ?? route.byMethod.get('*')!)(req, res);
  };
}

function normalizedPath(url: string): string {
  // The absolute form (`POST http://host/v1/...`), which clients send to a proxy.
  if (url[0] !== '/' && URL.canParse(url)) url = new URL(url).pathname;
  const q = url.indexOf('?');
  let path = q === -1 ? url : url.slice(0, q);
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return path.toLowerCase();
}

/**
 * Runs middlewares in order, each calling `next()` to go on or `next(err)`
 * to jump to `onError`; a thrown error or a rejected promise counts as
 * `next(err)`, as in express 5.
 */
export function runChain(handlers: Middleware[], onError: ErrorMiddleware): (req: HttpRequest, res: HttpResponse) => void {
  return (req, res) => {
    let index = 0;
    let failed = false;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      void Promise.resolve()
        .then(() => onError(err, req, res, () => undefined))
        .catch(() => {
          if (!res.headersSent) res.statusCode = 500;
          res.end();
        });
    };
    const next: Next = (err) => {
      if (err !== undefined && err !== null) return fail(err);
      const handler = handlers[index++];
      if (!handler) return;
      try {
        const result = handler(req, res, next);
        if (result instanceof Promise) result.catch(fail);
      } catch (thrown) {
        fail(thrown);
      }
    };
    next();
  };
}
