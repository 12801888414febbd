import type { RequestListener } from 'node:http';
import type { ErrorStyle } from './error-style';
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
  /**
   * `prefix`: the route serves every path under `path` (which ends in `/`),
   * for APIs that put names in the path (Gemini's
   * `/v1beta/models/{model}:generateContent`); its handlers read the rest
   * of the path themselves. Exact routes are matched first.
   */
  match?: 'exact' | 'prefix';
  methods: Partial<Record<'GET' | 'POST' | 'DELETE', Middleware[]>>;
  /** How this route's errors are worded, the API key's and the body reader's included (the gateway's envelope by default). */
  errorStyle?: ErrorStyle;
}

interface ServedRoute {
  path: string;
  errorStyle?: ErrorStyle;
  byMethod: Map<string, (req: HttpRequest, res: HttpResponse) => void>;
}

/**
 * A request listener that serves the direct routes and hands every other
 * request to `fallback` (the express app). Paths match exactly, ignoring
 * case, the query string and one trailing slash, as express's router does;
 * an absolute-form request target matches by its path.
 */
export function directRoutes(routes: DirectRoute[], before: Middleware[], onError: ErrorMiddleware, fallback: RequestListener): RequestListener {
  const table = new Map<string, ServedRoute>();
  const prefixes: Array<[string, ServedRoute]> = [];
  for (const route of routes) {
    const byMethod = new Map<string, (req: HttpRequest, res: HttpResponse) => void>();
    for (const [method, handlers] of Object.entries(route.methods)) byMethod.set(method, runChain([...before, ...handlers!], onError));
    byMethod.set('*', runChain([...before, methodNotAllowed(Object.keys(route.methods))], onError));
    const served = { path: route.match === 'prefix' ? `${route.path}*` : route.path, errorStyle: route.errorStyle, byMethod };
    if (route.match === 'prefix') prefixes.push([route.path.toLowerCase(), served]);
    else table.set(route.path.toLowerCase(), served);
  }
  const find = (path: string) => table.get(path) ?? prefixes.find(([prefix]) => path.startsWith(prefix) && path.length > prefix.length)?.[1];
  return (req, res: HttpResponse) => {
    const route = find(normalizedPath(req.url ?? '/'));
    if (!route) return fallback(req, res);
    // The route's label for the access log and metrics (express requests take it from `req.route`), and its error style.
    res.locals = route.errorStyle ? { route: route.path, errorStyle: route.errorStyle } : { route: route.path };
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
