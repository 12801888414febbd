import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicRoutes } from './anthropic/routes';
import type { SimulatorContext } from './context';
import { controlRoutes } from './control-routes';
import { FailureCounter } from './failure-counter';
import { loadRecordedFixtures } from './fixtures';
import { geminiRoutes } from './gemini/routes';
import { voyageRoutes } from './voyage/embeddings';
import { openaiRoutes, openaiUnknownUrl } from './openai/routes';
import { openaiVideoRoutes } from './openai-videos/routes';
import { type SimulatorOptions, resolveSimulatorOptions } from './options';
import { searchRoutes } from './search/routes';
import { readJsonBody } from './request-body';
import { RequestLog } from './request-log';
import { type Exchange, type Route, matchRoute } from './routing';
import { xaiVideoRoutes } from './xai/routes';

/**
 * A local fake upstream speaking the providers' wire protocols, for the
 * gateway's end-to-end tests, its demo mode and its benchmark. Each protocol
 * lives in its own folder and contributes routes; this file only listens and
 * dispatches. Nothing is logged per request and nothing is read from disk
 * after start-up, so it stays out of the way of a benchmark.
 */
export interface SimulatorHandle {
  /** Base URL without a path, e.g. `http://127.0.0.1:40123`; OpenAI clients use `${url}/v1`. */
  url: string;
  port: number;
  /** Stops listening and drops every open connection, hanging requests included. */
  close(): Promise<void>;
}

const KEEP_ALIVE_TIMEOUT_MS = 30_000;

export async function startSimulator(options: SimulatorOptions = {}): Promise<SimulatorHandle> {
  const resolved = resolveSimulatorOptions(options);
  const context: SimulatorContext = {
    options: resolved,
    fixtures: await loadRecordedFixtures(resolved.fixturesDir),
    failures: new FailureCounter(),
    requestLog: new RequestLog(resolved.requestLogSize),
  };
  // The first matching route answers; a request no route takes gets OpenAI's unknown-URL error, as most paths are OpenAI's.
  const routes = [...controlRoutes(context), ...searchRoutes(context), ...openaiRoutes(context), ...anthropicRoutes(context), ...geminiRoutes(context), ...voyageRoutes(context), ...openaiVideoRoutes(context), ...xaiVideoRoutes(context)];
  const server = createServer((req, res) => void dispatch(context, routes, openaiUnknownUrl, req, res));
  // Well past the idle time of pooling clients (undici's 4 s; Node's agent follows the Keep-Alive hint), so a reused connection is never closed under them.
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  const port = await listen(server, resolved.host, resolved.port);
  return { url: `http://${formatHost(resolved.host)}:${port}`, port, close: () => closeServer(server) };
}

async function dispatch(
  context: SimulatorContext,
  routes: readonly Route[],
  unmatched: Route['handle'],
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { path, query } = splitUrl(req.url ?? '/');
  const { route, params } = matchRoute(routes, req.method ?? 'GET', path) ?? { route: { handle: unmatched }, params: [] };
  const aborts = new AbortController();
  let cutOnPurpose = false;
  res.once('close', () => {
    if (res.writableFinished) return;
    aborts.abort();
    if (!cutOnPurpose && !route.internal) context.requestLog.countAborted();
  });
  const body = await (route.readBody ?? readJsonBody)(req, context.options.maxBodyBytes);
  if (!route.internal) {
    context.requestLog.record({ method: req.method ?? 'GET', path, headers: req.headers, body: body.kind === 'json' ? body.value : null });
  }
  const exchange: Exchange = {
    req,
    res,
    path,
    query,
    params,
    body,
    signal: aborts.signal,
    cutConnection: () => {
      cutOnPurpose = true;
      res.destroy();
    },
  };
  try {
    await route.handle(exchange);
  } catch (error) {
    reportHandlerFailure(res, error);
  }
}

/** A bug in the simulator, not a simulated failure: say so loudly, and never leave the client waiting. */
function reportHandlerFailure(res: ServerResponse, error: unknown): void {
  console.error('simulator: handler failed', error);
  if (res.headersSent) return void res.destroy();
  const message = `Simulator failure: ${error instanceof Error ? error.message : String(error)}`;
  const body = JSON.stringify({ error: { message, type: 'server_error', param: null, code: null } });
  res.writeHead(500, { 'content-type': 'application/json' }).end(body);
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}

/** IPv6 literals need brackets inside a URL. */
function formatHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

function splitUrl(url: string): { path: string; query: URLSearchParams } {
  const queryAt = url.indexOf('?');
  if (queryAt < 0) return { path: url, query: new URLSearchParams() };
  return { path: url.slice(0, queryAt), query: new URLSearchParams(url.slice(queryAt + 1)) };
}
