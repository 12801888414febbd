import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import type { ResolvedSearchBackend, SearchAdapter, SearchBackendType, SearchCall } from '../../src/providers/search/search-adapter';
import { UpstreamError } from '../../src/providers/upstream-error';

/**
 * A search backend on loopback for the search adapters' tests: it records
 * each request and answers as the test says, with a fixture from
 * `test/fixtures/search/`, an error, or silence.
 */

const FIXTURES = path.join(__dirname, '../fixtures/search');

/**
 * A fixture answer of a search protocol, as the bytes it would arrive in.
 * Written by hand to the documented wire shapes, not recorded from the live
 * APIs.
 */
export function searchFixture(name: string): string {
  return readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8');
}

export interface RecordedSearchRequest {
  method: string;
  /** The path without the query. */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON; undefined when there was none. */
  body: unknown;
}

export interface FakeSearchBackend {
  url: string;
  /** Every request so far, oldest first. */
  requests: RecordedSearchRequest[];
  /** The most recent request. */
  last(): RecordedSearchRequest;
  /** How the next requests are answered. */
  answer(status: number, body: string, headers?: Record<string, string>): void;
  /** Next requests get headers and then a space every 50 ms, never the end: each silence is short, the answer never done. */
  trickle(): void;
  /** Next requests get nothing at all. */
  stayQuiet(): void;
  close(): Promise<void>;
}

export async function startFakeSearchBackend(): Promise<FakeSearchBackend> {
  let respond: (res: ServerResponse) => void = (res) => res.writeHead(500).end();
  const requests: RecordedSearchRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      requests.push({
        method: req.method ?? '',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: raw ? JSON.parse(raw) : undefined,
      });
      respond(res);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    last: () => requests[requests.length - 1],
    answer(status, body, headers = {}) {
      respond = (res) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
    },
    trickle() {
      respond = (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const drip = setInterval(() => res.write(' '), 50);
        res.on('close', () => clearInterval(drip));
      };
    },
    stayQuiet() {
      respond = () => undefined;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A backend of the given protocol at the fake's address, with a trailing slash as operators sometimes write it. */
export function fakeBackend(type: SearchBackendType, url: string, overrides: Partial<ResolvedSearchBackend> = {}): ResolvedSearchBackend {
  return { id: `my-${type}`, name: `My ${type}`, type, baseUrl: `${url}/`, apiKey: 'test-key-123', timeoutMs: 5000, maxResults: 10, headers: {}, simulated: false, ...overrides };
}

/** A plain web search of the backend, changed by `overrides`. */
export function searchCall(backend: ResolvedSearchBackend, overrides: Partial<SearchCall> = {}): SearchCall {
  return {
    backend,
    query: 'test query',
    type: 'web',
    maxResults: 5,
    searchDepth: 'basic',
    includeAnswer: false,
    includeRawContent: false,
    includeDomains: [],
    excludeDomains: [],
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** The error a search fails with (the test fails if it succeeds). */
export async function searchFailure(adapter: SearchAdapter, call: SearchCall): Promise<UpstreamError> {
  const err = await adapter.search(call).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof UpstreamError)) throw new Error(`expected an UpstreamError, got ${String(err)}`);
  return err;
}

/**
 * What every adapter does alike over HTTP, checked against each one: 429
 * and 5xx retryable with their Retry-After, an answer that is not JSON or
 * not the protocol's shape malformed, the time limit covering the whole
 * call, and the caller's abort passed through as itself.
 */
export function itHandlesSearchTransport(adapter: SearchAdapter, fake: () => FakeSearchBackend): void {
  const backend = (overrides: Partial<ResolvedSearchBackend> = {}) => fakeBackend(adapter.type, fake().url, overrides);

  it('marks 429 and 503 retryable, keeping Retry-After', async () => {
    fake().answer(429, '{"message":"Too many requests"}', { 'retry-after': '7' });
    const limited = await searchFailure(adapter, searchCall(backend()));
    expect(limited.details).toMatchObject({ status: 429, retryable: true, retryAfterSeconds: 7 });
    expect(limited.message).toContain('My ');
    fake().answer(503, '<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>');
    const down = await searchFailure(adapter, searchCall(backend()));
    expect(down.details).toMatchObject({ status: 503, retryable: true });
    expect(down.message).toContain('503 Service Temporarily Unavailable');
  });

  it('calls an answer that is not JSON, or not the protocol shape, malformed (502, retryable)', async () => {
    fake().answer(200, '<!doctype html><title>Just a moment...</title>');
    const html = await searchFailure(adapter, searchCall(backend()));
    expect(html.details).toMatchObject({ status: 502, retryable: true, cause: 'malformed_answer' });
    fake().answer(200, '{"items":[{"href":"https://example.com"}]}');
    const shape = await searchFailure(adapter, searchCall(backend()));
    expect(shape.details).toMatchObject({ status: 502, retryable: true, cause: 'malformed_answer' });
  });

  it('gives up after timeoutMs in all, whether the backend is silent or never finishes its answer', async () => {
    for (const stall of ['stayQuiet', 'trickle'] as const) {
      fake()[stall]();
      const started = Date.now();
      const err = await searchFailure(adapter, searchCall(backend({ timeoutMs: 200 })));
      expect(err.details).toMatchObject({ status: 0, retryable: true, cause: 'timeout' });
      expect(err.message).toBe(`My ${adapter.type} did not answer within 200 ms`);
      expect(Date.now() - started).toBeLessThan(2000);
    }
  });

  it("rejects with the caller's abort itself, not an upstream failure", async () => {
    fake().stayQuiet();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const err = await adapter.search(searchCall(backend({ timeoutMs: 5000 }), { signal: controller.signal })).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(UpstreamError);
    expect((err as Error).name).toBe('AbortError');
  });
}

/**
 * A fake backend of `type` for the test file around it (started before its
 * tests, closed after), and a builder of calls aimed at it (`backend`
 * changes the configured backend: no key, extra headers).
 */
export function fakeSearchBackendFor(type: SearchBackendType, base: Partial<ResolvedSearchBackend> = {}): {
  fake: FakeSearchBackend;
  call: (overrides?: Partial<SearchCall>, backend?: Partial<ResolvedSearchBackend>) => SearchCall;
} {
  let started: FakeSearchBackend | undefined;
  beforeAll(async () => {
    started = await startFakeSearchBackend();
  });
  afterAll(() => started?.close());
  const current = (): FakeSearchBackend => {
    if (!started) throw new Error('the fake search backend is used before its beforeAll');
    return started;
  };
  const fake: FakeSearchBackend = {
    get url() {
      return current().url;
    },
    get requests() {
      return current().requests;
    },
    last: () => current().last(),
    answer: (status, body, headers) => current().answer(status, body, headers),
    trickle: () => current().trickle(),
    stayQuiet: () => current().stayQuiet(),
    close: () => current().close(),
  };
  return { fake, call: (overrides = {}, backend = {}) => searchCall(fakeBackend(type, fake.url, { ...base, ...backend }), overrides) };
}
