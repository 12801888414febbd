import type { Span } from '@opentelemetry/api';
import { Deadline } from '../../deadlines/deadline';
import { sendUpstream } from '../http-client';
import { ForbiddenAddressError, isForbiddenLiteralHost } from '../public-address';
import { UpstreamError } from '../upstream-error';
import { ClientCredentialsTokens } from './client-credentials-tokens';
import { readAnswer } from './mcp-answer';
import { McpServerError } from './mcp-server-error';
import { initializeResultSchema, type InitializeResult } from './mcp-wire';
import type { ResolvedMcpServer } from './resolved-mcp-server';

/** The revision the gateway asks upstream servers for; a server may answer with an older one it speaks. */
export const UPSTREAM_PROTOCOL_VERSION = '2025-11-25';
const UPSTREAM_VERSIONS = new Set(['2025-11-25', '2025-06-18', '2025-03-26']);
const CLIENT_INFO = { name: 'model-gateway', version: '1.0.0' };

interface UpstreamSession {
  /** `Mcp-Session-Id`, when the server issued one. */
  id: string | undefined;
  protocolVersion: string;
  capabilities: InitializeResult['capabilities'];
}

export interface McpCallScope {
  signal: AbortSignal;
  span?: Span;
}

/** The server forgot the session (HTTP 404 to a request that named it), or refused a token that may have run out. */
class StaleCredentials extends Error {}

/**
 * The gateway as an MCP client of the operator's upstream servers, over the
 * Streamable HTTP transport: one session per server and gateway instance,
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

  constructor(private readonly tokens = new ClientCredentialsTokens()) {}

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
        this.sessions.delete(sessionKey(server));
        return this.send(server, await this.session(server, signal, scope.span), method, params, signal, scope.span);
      }
    });
  }

  private async bounded<T>(server: ResolvedMcpServer, scope: McpCallScope, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const deadline = new Deadline(server.timeoutMs, [scope.signal]);
    try {
      return await work(deadline.signal);
    } catch (err) {
      if (deadline.expired) throw new UpstreamError(`MCP server "${server.name}" did not answer within ${server.timeoutMs} ms`, { status: 0, retryable: false, cause: 'timeout' });
      if (err instanceof ForbiddenAddressError) throw new UpstreamError(`MCP server "${server.name}" is not reachable: ${err.message} (declare it private to allow that)`, { status: 0, retryable: false, cause: 'connect' });
      if (err instanceof StaleCredentials) throw new UpstreamError(`MCP server "${server.name}" refused the gateway's credentials`, { status: 502, retryable: false, cause: 'credential_refused' });
      // The HTTP client's own words ("the upstream could not be reached: ..."), with the server named.
      if (err instanceof UpstreamError && !err.message.startsWith('MCP server')) throw new UpstreamError(`MCP server "${server.name}": ${err.message}`, err.details);
      throw err;
    } finally {
      deadline.clear();
    }
  }

  private session(server: ResolvedMcpServer, signal: AbortSignal, span: Span | undefined): Promise<UpstreamSession> {
    const key = sessionKey(server);
    const open = this.sessions.get(key);
    if (open) return open;
    const opening = this.initialize(server, signal, span);
    this.sessions.set(key, opening);
    opening.catch(() => this.sessions.get(key) === opening && this.sessions.delete(key));
    return opening;
  }

  private async initialize(server: ResolvedMcpServer, signal: AbortSignal, span: Span | undefined): Promise<UpstreamSession> {
    const params = { protocolVersion: UPSTREAM_PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO };
    const { result, sessionId } = await this.post(server, undefined, { method: 'initialize', params }, signal, span);
    const parsed = initializeResultSchema.safeParse(result);
    if (!parsed.success) throw new UpstreamError(`MCP server "${server.name}" answered initialize without its protocol version and capabilities`, { status: 502, retryable: false, cause: 'malformed_answer' });
    if (!UPSTREAM_VERSIONS.has(parsed.data.protocolVersion)) {
      throw new UpstreamError(`MCP server "${server.name}" speaks protocol revision ${parsed.data.protocolVersion}, which the gateway does not`, { status: 502, retryable: false, cause: 'malformed_answer' });
    }
    const session = { id: sessionId, protocolVersion: parsed.data.protocolVersion, capabilities: parsed.data.capabilities };
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
    const headers: Record<string, string> = {
      ...server.headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(session ? { 'mcp-protocol-version': session.protocolVersion } : {}),
      ...(session?.id ? { 'mcp-session-id': session.id } : {}),
    };
    const publicOnly = server.publicOnly;
    if (publicOnly && isForbiddenLiteralHost(new URL(server.url))) throw new ForbiddenAddressError(`${new URL(server.url).hostname} is a private or reserved address`);
    if (server.oauth) headers.authorization = `Bearer ${await this.tokens.token(server.oauth, { signal, timeoutMs: server.timeoutMs, publicOnly })}`;
    const res = await sendUpstream({ url: server.url, headers, body: JSON.stringify({ jsonrpc: '2.0', ...(id !== undefined ? { id } : {}), ...message }), signal, span, timeoutMs: server.timeoutMs, publicOnly });
    if (res.status === 404 && session?.id) {
      res.body.resume();
      throw new StaleCredentials();
    }
    if (res.status === 401 && server.oauth) {
      res.body.resume();
      this.tokens.forget(server.oauth);
      throw new StaleCredentials();
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
    const answer = await readAnswer(res, id, server.name, signal);
    if ('error' in answer) throw new McpServerError(server.name, answer.error.code, answer.error.message, answer.error.data);
    return { result: answer.result, sessionId };
  }
}

/** A session belongs to one server as configured: a catalog edit that moves it or changes its credentials opens a new one. */
function sessionKey(server: ResolvedMcpServer): string {
  return JSON.stringify([server.name, server.url, server.headers, server.oauth]);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
}
