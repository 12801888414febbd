import type { Span } from '@opentelemetry/api';
import { Deadline } from '../../deadlines/deadline';
import { sendUpstream } from '../http-client';
import { ForbiddenAddressError, isForbiddenLiteralHost } from '../public-address';
import { UpstreamError } from '../upstream-error';
import { ClientCredentialsTokens } from './client-credentials-tokens';
import { readAnswer } from './mcp-answer';
import { McpServerError } from './mcp-server-error';
import { McpServerHealth } from './mcp-server-health';
import { initializeResultSchema, type InitializeResult, type JsonRpcAnswer } from './mcp-wire';
import type { ResolvedMcpServer } from './resolved-mcp-server';
import { SseConnection } from './sse-connection';

/** The revision the gateway asks upstream servers for; a server may answer with an older one it speaks. */
export const UPSTREAM_PROTOCOL_VERSION = '2025-11-25';
const UPSTREAM_VERSIONS = new Set(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);
const CLIENT_INFO = { name: 'model-gateway', version: '1.0.0' };

interface UpstreamSession {
  /** `Mcp-Session-Id`, when the server issued one. */
  id: string | undefined;
  protocolVersion: string;
  capabilities: InitializeResult['capabilities'];
  /** The event stream of a server on the HTTP+SSE transport, which carries every answer of the session. */
  sse?: SseConnection;
}

export interface McpCallScope {
  signal: AbortSignal;
  span?: Span;
}

/** The server forgot the session (HTTP 404 to a request that named it), or refused a token that may have run out. */
class StaleCredentials extends Error {}

/**
 * The gateway as an MCP client of the operator's upstream servers, over the
 * Streamable HTTP transport (or the older HTTP+SSE one, `sse-connection.ts`,
 * for a server configured with `transport: sse`): one session per server and gateway instance,
 * opened with `initialize` when first needed and opened again when the
 * server ends it (404), shared by every key's calls (the gateway calls with
 * its own credentials, never a client's). Every call is bounded by the
 * server's `timeout_ms`; addresses are checked by the SSRF guard unless the
 * server is declared private.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports
 */
export class McpUpstream {
  private readonly sessions = new Map<string, Promise<UpstreamSession>>();
  private nextId = 1;

  constructor(
    private readonly tokens = new ClientCredentialsTokens(),
    /** Each server's last success and failure on this instance, as the admin API lists them. */
    readonly health = new McpServerHealth(),
  ) {}

  /** What the server said it offers (tools, resources, prompts), opening its session if needed. */
  async capabilities(server: ResolvedMcpServer, scope: McpCallScope): Promise<UpstreamSession['capabilities']> {
    return this.bounded(server, scope, async (signal) => (await this.session(server, signal, scope.span)).capabilities);
  }

  /** Sends one request and resolves with its result; a JSON-RPC error is thrown as McpServerError, a failure to reach the server as UpstreamError. */
  async request(server: ResolvedMcpServer, method: string, params: Record<string, unknown> | undefined, scope: McpCallScope): Promise<Record<string, unknown>> {
    return this.bounded(server, scope, async (signal) => {
      try {
        return await this.send(server, await this.session(server, signal, scope.span), method, params, signal, scope.span);
      } catch (err) {
        if (!(err instanceof StaleCredentials)) throw err;
        const stale = this.sessions.get(sessionKey(server));
        this.sessions.delete(sessionKey(server));
        void stale?.then((session) => session.sse?.close(), () => undefined);
        return this.send(server, await this.session(server, signal, scope.span), method, params, signal, scope.span);
      }
    });
  }

  /** Runs `work` within the server's time limit, words its failure with the server named, and notes how the server did. */
  private async bounded<T>(server: ResolvedMcpServer, scope: McpCallScope, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const deadline = new Deadline(server.timeoutMs, [scope.signal]);
    try {
      const result = await work(deadline.signal);
      this.health.succeeded(server.name);
      return result;
    } catch (err) {
      const told = this.told(server, err, deadline.expired);
      if (told instanceof McpServerError) this.health.succeeded(server.name);
      else if (!scope.signal.aborted) this.health.failed(server.name, (told as Error).message);
      throw told;
    } finally {
      deadline.clear();
    }
  }

  private told(server: ResolvedMcpServer, err: unknown, expired: boolean): unknown {
    if (expired) return new UpstreamError(`MCP server "${server.name}" did not answer within ${server.timeoutMs} ms`, { status: 0, retryable: false, cause: 'timeout' });
    if (err instanceof ForbiddenAddressError) return new UpstreamError(`MCP server "${server.name}" is not reachable: ${err.message} (declare it private to allow that)`, { status: 0, retryable: false, cause: 'connect' });
    if (err instanceof StaleCredentials) return new UpstreamError(`MCP server "${server.name}" refused the gateway's credentials`, { status: 502, retryable: false, cause: 'credential_refused' });
    // The HTTP client's own words ("the upstream could not be reached: ..."), with the server named.
    if (err instanceof UpstreamError && !err.message.startsWith('MCP server')) return new UpstreamError(`MCP server "${server.name}": ${err.message}`, err.details);
    return err;
  }

  private session(server: ResolvedMcpServer, signal: AbortSignal, span: Span | undefined): Promise<UpstreamSession> {
    const key = sessionKey(server);
    const open = this.sessions.get(key);
    if (open) {
      // An event stream that ended ends its session: the next call opens another.
      return open.then((session) => {
        if (!session.sse?.closed) return session;
        if (this.sessions.get(key) === open) this.sessions.delete(key);
        return this.session(server, signal, span);
      });
    }
    const opening = this.initialize(server, signal, span);
    this.sessions.set(key, opening);
    opening.catch(() => this.sessions.get(key) === opening && this.sessions.delete(key));
    return opening;
  }

  private async initialize(server: ResolvedMcpServer, signal: AbortSignal, span: Span | undefined): Promise<UpstreamSession> {
    if (server.transport !== 'sse') return this.handshake(server, undefined, signal, span);
    const sse = await SseConnection.open(server, await this.credentials(server, signal), signal, span);
    try {
      return await this.handshake(server, sse, signal, span);
    } catch (err) {
      sse.close();
      throw err;
    }
  }

  /** `initialize`, then `notifications/initialized`: the session the server agreed to. */
  private async handshake(server: ResolvedMcpServer, sse: SseConnection | undefined, signal: AbortSignal, span: Span | undefined): Promise<UpstreamSession> {
    const params = { protocolVersion: UPSTREAM_PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO };
    const opening = sse && { id: undefined, protocolVersion: UPSTREAM_PROTOCOL_VERSION, capabilities: {}, sse };
    const { result, sessionId } = await this.post(server, opening, { method: 'initialize', params }, signal, span);
    const parsed = initializeResultSchema.safeParse(result);
    if (!parsed.success) throw new UpstreamError(`MCP server "${server.name}" answered initialize without its protocol version and capabilities`, { status: 502, retryable: false, cause: 'malformed_answer' });
    if (!UPSTREAM_VERSIONS.has(parsed.data.protocolVersion)) {
      throw new UpstreamError(`MCP server "${server.name}" speaks protocol revision ${parsed.data.protocolVersion}, which the gateway does not`, { status: 502, retryable: false, cause: 'malformed_answer' });
    }
    const session = { id: sessionId, protocolVersion: parsed.data.protocolVersion, capabilities: parsed.data.capabilities, sse };
    await this.post(server, session, { method: 'notifications/initialized' }, signal, span);
    return session;
  }

  private async send(server: ResolvedMcpServer, session: UpstreamSession, method: string, params: Record<string, unknown> | undefined, signal: AbortSignal, span: Span | undefined) {
    return (await this.post(server, session, { method, params }, signal, span)).result;
  }

  /** One POST: a request (with an id) resolves with its result, a notification with nothing once accepted. */
  private async post(server: ResolvedMcpServer, session: UpstreamSession | undefined, message: { method: string; params?: Record<string, unknown> }, signal: AbortSignal, span: Span | undefined) {
    const notification = message.method.startsWith('notifications/');
    const id = notification ? undefined : this.nextId++;
    const body = { jsonrpc: '2.0', ...(id !== undefined ? { id } : {}), ...message };
    if (session?.sse) return { result: answered(server, await session.sse.send(body, await this.credentials(server, signal), { signal, span }, (status) => this.stale(server, session, status))), sessionId: undefined };
    const headers: Record<string, string> = {
      ...(await this.credentials(server, signal)),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(session ? { 'mcp-protocol-version': session.protocolVersion } : {}),
      ...(session?.id ? { 'mcp-session-id': session.id } : {}),
    };
    const publicOnly = server.publicOnly;
    const res = await sendUpstream({ url: server.url, headers, body: JSON.stringify(body), signal, span, timeoutMs: server.timeoutMs, publicOnly });
    const stale = this.stale(server, session, res.status);
    if (stale) {
      res.body.resume();
      throw stale;
    }
    if (res.status >= 400) {
      res.body.resume();
      throw new UpstreamError(`MCP server "${server.name}" answered HTTP ${res.status}`, { status: 502, retryable: res.status >= 500, cause: res.status === 401 || res.status === 403 ? 'credential_refused' : undefined });
    }
    const sessionId = headerValue(res.headers['mcp-session-id']);
    if (id === undefined) {
      res.body.resume();
      return { result: {}, sessionId };
    }
    return { result: answered(server, await readAnswer(res, id, server.name, signal)), sessionId };
  }

  /** A 404 to a request of a session the server issued (it forgot it), or a 401 to a token (it may have run out): the call is made again on a new session. */
  private stale(server: ResolvedMcpServer, session: UpstreamSession | undefined, status: number): StaleCredentials | undefined {
    if (status === 404 && (session?.id || session?.sse)) return new StaleCredentials();
    if (status !== 401 || !server.oauth) return undefined;
    this.tokens.forget(server.oauth);
    return new StaleCredentials();
  }

  /**
   * Ends the sessions of servers no longer configured as they were (edited,
   * disabled or removed: a session belongs to one server as configured, see
   * `sessionKey`): each event stream of the HTTP+SSE transport is closed
   * once the calls waiting on it have their answers, so that an edit does
   * not fail a call in flight and the old server does not keep a stream
   * the gateway will never use again.
   */
  keepOnly(servers: readonly ResolvedMcpServer[]): void {
    const kept = new Set(servers.map(sessionKey));
    for (const [key, opening] of this.sessions) {
      if (kept.has(key)) continue;
      this.sessions.delete(key);
      void opening.then((session) => session.sse?.retire(), () => undefined);
    }
  }

  /** Ends every event stream (at shutdown). */
  close(): void {
    for (const opening of this.sessions.values()) void opening.then((session) => session.sse?.close(), () => undefined);
    this.sessions.clear();
  }

  /** The headers that authenticate the gateway to the server (fixed ones, or a client-credentials token), once its address passed the SSRF rule. */
  private async credentials(server: ResolvedMcpServer, signal: AbortSignal): Promise<Record<string, string>> {
    const { publicOnly } = server;
    if (publicOnly && isForbiddenLiteralHost(new URL(server.url))) throw new ForbiddenAddressError(`${new URL(server.url).hostname} is a private or reserved address`);
    if (!server.oauth) return server.headers;
    return { ...server.headers, authorization: `Bearer ${await this.tokens.token(server.oauth, { signal, timeoutMs: server.timeoutMs, publicOnly })}` };
  }
}

/** A result, or the server's JSON-RPC error thrown as McpServerError; a notification has no answer. */
function answered(server: ResolvedMcpServer, answer: JsonRpcAnswer | undefined): Record<string, unknown> {
  if (!answer) return {};
  if ('error' in answer) throw new McpServerError(server.name, answer.error.code, answer.error.message, answer.error.data);
  return answer.result;
}

/**
 * A session belongs to one server as its connection is configured: a
 * catalog edit that moves it, changes its credentials, its address rule or
 * its time limit (which an HTTP+SSE connection keeps for its messages) opens
 * a new one and ends the old (`keepOnly`); one that changes only its prices
 * keeps it.
 */
function sessionKey(server: ResolvedMcpServer): string {
  return JSON.stringify([server.name, server.url, server.transport, server.headers, server.oauth, server.publicOnly, server.timeoutMs]);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
}
