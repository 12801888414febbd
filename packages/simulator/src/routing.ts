import type { IncomingMessage, ServerResponse } from 'node:http';

/** A request body as the simulator read it; each protocol reports the failures in its own error shape. */
export type RequestBody =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'invalid_json' }
  | { kind: 'too_large' };

/** One request and its response, as a route handler sees them. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** The path without its query string. */
  path: string;
  query: URLSearchParams;
  /** The capture groups of the route's path pattern. */
  params: string[];
  body: RequestBody;
  /** Aborts when the client goes away before the response is complete. */
  signal: AbortSignal;
  /**
   * Drops the connection mid-response, as a failing upstream does. Unlike a
   * client's disconnect, this is not counted as an aborted request.
   */
  cutConnection(): void;
}

export interface Route {
  method: string;
  /** Matched against the whole path, without the query string. */
  path: RegExp;
  /** Control routes are not simulated traffic: they are neither logged nor counted as aborted. */
  internal?: boolean;
  /** Reads the body before `handle`; JSON by default. A route taking uploads reads multipart itself. */
  readBody?(req: IncomingMessage, maxBytes: number): Promise<RequestBody>;
  handle(exchange: Exchange): Promise<void>;
}

/** The first route, in mounting order, that takes this method and path, with its path's captures. */
export function matchRoute(routes: readonly Route[], method: string, path: string): { route: Route; params: string[] } | undefined {
  for (const route of routes) {
    if (route.method !== method) continue;
    const match = route.path.exec(path);
    if (match) return { route, params: match.slice(1).map((capture) => capture ?? '') };
  }
  return undefined;
}
