import type { Span } from '@opentelemetry/api';
import { readSseEvents, releaseBody, sendUpstream, toStreamReadError, type UpstreamResponse } from '../http-client';
import { parseJsonOrUndefined } from '../parse-json';
import { UpstreamError } from '../upstream-error';
import { jsonRpcAnswerSchema, type JsonRpcAnswer } from './mcp-wire';
import type { ResolvedMcpServer } from './resolved-mcp-server';

/** An event stream silent this long is closed; the next call opens another (servers of this transport seldom send keep-alives). */
const STREAM_IDLE_MS = 5 * 60_000;
/** The most of one message read from the stream. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

interface Waiting {
  resolve(answer: JsonRpcAnswer): void;
  reject(err: unknown): void;
}

type SseEvents = AsyncIterator<{ event?: string; data: string }>;

/**
 * One connection to an MCP server over the HTTP+SSE transport of revision
 * 2024-11-05: a GET opens an event stream whose first `endpoint` event
 * names the URL to POST messages to (on the stream's own origin); each
 * request is POSTed there and its answer arrives on the stream as a
 * `message` event, matched by id. The stream stays open for every call of
 * the gateway's session with the server; when it ends, the calls waiting
 * on it fail and the connection is `closed`, so the next call opens a new
 * one (and a new session).
 * @see https://modelcontextprotocol.io/specification/2024-11-05/basic/transports#http-with-sse
 */
export class SseConnection {
  private readonly waiting = new Map<number, Waiting>();
  private ended: Error | undefined;
  /** Set once the session is no longer wanted: the stream is closed when no call waits on it. */
  private retiring = false;

  private constructor(
    private readonly server: ResolvedMcpServer,
    /** Where messages are POSTed, as the server announced it. */
    readonly postUrl: string,
    private readonly stream: AbortController,
  ) {}

  /** Opens the stream and waits for its `endpoint` event, within the call that needed it (`signal`). */
  static async open(server: ResolvedMcpServer, headers: Record<string, string>, signal: AbortSignal, span: Span | undefined): Promise<SseConnection> {
    // The stream outlives the call that opens it: it has an abort of its own, tied to the call's only until the endpoint is known.
    const stream = new AbortController();
    const abortOpening = () => stream.abort(signal.reason);
    signal.addEventListener('abort', abortOpening, { once: true });
    let res: UpstreamResponse | undefined;
    try {
      res = await sendUpstream({ method: 'GET', url: server.url, headers: { ...headers, accept: 'text/event-stream' }, signal: stream.signal, span, timeoutMs: STREAM_IDLE_MS, publicOnly: server.publicOnly });
      if (res.status >= 400) throw new UpstreamError(`MCP server "${server.name}" answered HTTP ${res.status} to its event stream`, { status: 502, retryable: res.status >= 500, cause: res.status === 401 || res.status === 403 ? 'credential_refused' : undefined });
      const events = readSseEvents(res.body);
      const postUrl = await endpointOf(server, events);
      const connection = new SseConnection(server, postUrl, stream);
      void connection.read(events, res);
      return connection;
    } catch (err) {
      stream.abort();
      if (res) releaseBody(res.body, false);
      throw toStreamReadError(err, signal);
    } finally {
      signal.removeEventListener('abort', abortOpening);
    }
  }

  /** True once the stream ended: the connection takes no more calls. */
  get closed(): boolean {
    return this.ended !== undefined;
  }

  /**
   * POSTs one message; a request (with an id) resolves with its answer from
   * the stream, a notification once the server accepted it. A POST the
   * server refuses because it forgot the session or the credentials ran
   * out is what `stale` makes of its status, if anything.
   */
  async send(message: Record<string, unknown>, headers: Record<string, string>, scope: { signal: AbortSignal; span?: Span }, stale: (status: number) => Error | undefined): Promise<JsonRpcAnswer | undefined> {
    if (this.ended) throw this.ended;
    const id = typeof message.id === 'number' ? message.id : undefined;
    const answer = id === undefined ? undefined : this.awaitAnswer(id, scope.signal);
    try {
      const res = await sendUpstream({ url: this.postUrl, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(message), signal: scope.signal, span: scope.span, timeoutMs: this.server.timeoutMs, publicOnly: this.server.publicOnly });
      res.body.resume();
      const staleError = stale(res.status);
      if (staleError) throw staleError;
      if (res.status >= 400) throw new UpstreamError(`MCP server "${this.server.name}" answered HTTP ${res.status}`, { status: 502, retryable: res.status >= 500, cause: res.status === 401 || res.status === 403 ? 'credential_refused' : undefined });
    } catch (err) {
      if (id !== undefined) this.waiting.delete(id);
      answer?.catch(() => undefined);
      this.closeIfIdle();
      throw err;
    }
    return answer;
  }

  /** Ends the stream once the calls waiting on it have their answers (or gave up); no new call comes once its session is dropped. */
  retire(): void {
    this.retiring = true;
    this.closeIfIdle();
  }

  /** Ends the stream (the session is no longer wanted). */
  close(): void {
    this.end(new UpstreamError(`MCP server "${this.server.name}": the gateway closed its event stream`, { status: 502, retryable: false }));
    this.stream.abort();
  }

  private awaitAnswer(id: number, signal: AbortSignal): Promise<JsonRpcAnswer> {
    return new Promise((resolve, reject) => {
      const stop = () => {
        this.waiting.delete(id);
        reject(signal.reason);
        this.closeIfIdle();
      };
      signal.addEventListener('abort', stop, { once: true });
      this.waiting.set(id, {
        resolve: (a) => (signal.removeEventListener('abort', stop), resolve(a)),
        reject: (e) => (signal.removeEventListener('abort', stop), reject(e)),
      });
    });
  }

  /** A retiring stream with no call waiting on it is closed. */
  private closeIfIdle(): void {
    if (this.retiring && !this.ended && this.waiting.size === 0) this.close();
  }

  /** Hands each answer on the stream to the call waiting for it; the server's own requests and notifications are skipped. */
  private async read(events: SseEvents, res: UpstreamResponse): Promise<void> {
    let reason: Error;
    try {
      for (let next = await events.next(); !next.done; next = await events.next()) {
        const { event, data } = next.value;
        if ((event !== undefined && event !== 'message') || data.length > MAX_MESSAGE_BYTES) continue;
        const message = parseJsonOrUndefined(data) as { id?: unknown } | undefined;
        const waiting = typeof message?.id === 'number' ? this.waiting.get(message.id) : undefined;
        if (!waiting) continue;
        this.waiting.delete(message!.id as number);
        const parsed = jsonRpcAnswerSchema.safeParse(message);
        if (parsed.success) waiting.resolve(parsed.data);
        else waiting.reject(new UpstreamError(`MCP server "${this.server.name}" answered malformed: its answer is not a JSON-RPC result or error`, { status: 502, retryable: false, cause: 'malformed_answer' }));
        this.closeIfIdle();
      }
      reason = new UpstreamError(`MCP server "${this.server.name}" ended its event stream`, { status: 502, retryable: false, cause: 'stream_cut' });
    } catch (err) {
      const told = toStreamReadError(err);
      reason = told instanceof Error ? told : new Error(String(told));
    }
    releaseBody(res.body, false);
    this.end(reason);
  }

  private end(reason: Error): void {
    this.ended ??= reason;
    for (const waiting of this.waiting.values()) waiting.reject(reason);
    this.waiting.clear();
  }
}

/** The stream's first `endpoint` event: the URL messages go to, which must be on the stream's own origin (a server cannot send the gateway elsewhere). */
async function endpointOf(server: ResolvedMcpServer, events: SseEvents): Promise<string> {
  for (let next = await events.next(); !next.done; next = await events.next()) {
    if (next.value.event !== 'endpoint') continue;
    const url = new URL(next.value.data.trim(), server.url);
    if (url.origin !== new URL(server.url).origin) {
      throw new UpstreamError(`MCP server "${server.name}" announced a message endpoint on another origin (${url.origin})`, { status: 502, retryable: false, cause: 'malformed_answer' });
    }
    return url.href;
  }
  throw new UpstreamError(`MCP server "${server.name}" ended its event stream before announcing its message endpoint`, { status: 502, retryable: false, cause: 'malformed_answer' });
}
