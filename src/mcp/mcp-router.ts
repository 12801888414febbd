import type { GatewayError } from '../errors/gateway-error';
import type { DirectRoute } from '../http/direct-routes';
import type { HttpRequest, HttpResponse, Middleware } from '../http/http-types';
import { locals } from '../http/request-locals';
import { sendJson } from '../http/send-json';
import { requestSpan } from '../http/traced-listener';
import type { ModelCallGate } from '../model-call/model-call-gate';
import { toGatewayError } from '../model-call/to-gateway-error';
import { Errors } from '../errors/errors';
import type { Logger } from '../observability/logger';
import { errorMessage, InvalidMessage, readClientMessage, refusalMessage, resultMessage, type JsonRpcId } from './json-rpc';
import { mcpErrorStyle } from './mcp-error-style';
import { MCP_ENDPOINT, type McpCaller, type McpService } from './mcp-service';
import { answerMethod } from './mcp-methods';
import { originCheck } from './origin-check';
import { modernAnswer, modernStatus } from './modern-answers';
import { requestRevision, withoutProtocolMeta, type RequestRevision } from './request-revision';

export interface McpRouteDeps {
  gate: ModelCallGate;
  jsonBody: Middleware;
  logger: Logger;
  /** GATEWAY_PUBLIC_URL, for the resource metadata URL. */
  publicUrl: string | undefined;
  /** GATEWAY_MCP_ALLOWED_ORIGINS. */
  allowedOrigins: readonly string[];
  /** A tool call still running after this long is answered as an event stream, with comments that keep the connection alive until its answer. */
  eventStreamAfterMs?: number;
}

const EVENT_STREAM_AFTER_MS = 5_000;

/**
 * `/mcp`, MCP's Streamable HTTP transport without sessions: each POST
 * carries one JSON-RPC message, of a legacy revision (after `initialize`)
 * or of the stateless 2026-07-28 one (its revision, client and headers
 * checked per request, `request-revision.ts`; its answers shaped by
 * `modern-answers.ts`). A request is answered as `application/json`,
 * or, for a tool call that runs long and a client that accepts it, as a
 * `text/event-stream` of keep-alive comments and the answer. Notifications
 * and responses are accepted with 202. There is no server-initiated stream
 * (GET) and no session to end (DELETE): both are 405. The API key comes as
 * `Authorization: Bearer`; without one the 401 points to the resource's
 * metadata.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
 */
export function mcpRoute(mcp: McpService, deps: McpRouteDeps): DirectRoute {
  return {
    path: MCP_ENDPOINT,
    errorStyle: mcpErrorStyle(deps.publicUrl),
    methods: { POST: [originCheck(deps.allowedOrigins, deps.publicUrl), deps.jsonBody, (req, res) => answerPost(mcp, deps, req, res)] },
  };
}

async function answerPost(mcp: McpService, deps: McpRouteDeps, req: HttpRequest, res: HttpResponse): Promise<void> {
  const l = locals(res);
  let message;
  let revision: RequestRevision;
  try {
    message = readClientMessage(req.body);
    revision = requestRevision(req.headers, message);
  } catch (err) {
    if (!(err instanceof InvalidMessage)) throw err;
    return sendJson(res, err.options.status ?? 400, err.answer());
  }
  if (message.kind !== 'request') {
    res.statusCode = 202;
    return void res.end();
  }
  const abort = new AbortController();
  res.once('close', () => res.writableFinished || abort.abort());
  const caller: McpCaller = { principal: l.principal!, signal: abort.signal, logger: deps.logger, span: requestSpan(res) };
  const modern = revision.era === 'modern';
  const params = modern ? withoutProtocolMeta(message.params) : message.params;
  if (message.method === 'tools/call') return answerToolCall(mcp, deps, req, res, message.id, params, revision);
  const answer = await answerMethod(mcp, caller, message.method, params, revision).then(
    (result) => resultMessage(message.id, result),
    (err: unknown) => errorAnswer(message.id, err, deps.logger, l.requestId),
  );
  if (!modern) return sendJson(res, 200, answer);
  const told = modernAnswer(message.method, answer);
  sendJson(res, modernStatus(told), told);
}

/**
 * A tool call is a model call: opened through the gate (its usage record),
 * admitted under the rate limits once its tool is named, and ended through
 * the gate's `refuse` when it fails before the service settles it.
 */
async function answerToolCall(mcp: McpService, deps: McpRouteDeps, req: HttpRequest, res: HttpResponse, id: JsonRpcId, params: Record<string, unknown> | undefined, revision: RequestRevision): Promise<void> {
  const l = locals(res);
  const { gate } = deps;
  const { context, abort } = gate.open({ requestId: l.requestId, principal: l.principal!, endpoint: MCP_ENDPOINT, createdAt: l.createdAt, startedAt: l.startedAt, span: requestSpan(res) });
  res.once('close', () => {
    if (res.writableFinished) return;
    abort.abort();
    context.ticket.noteClientGone();
  });
  const admit = async () => {
    const admission = await gate.admit(context, { endpoint: 'mcp', model: undefined, body: undefined });
    if (!res.headersSent) for (const [name, value] of Object.entries(admission.headers)) res.setHeader(name, value);
    if (admission.refusal) throw admission.refusal;
  };
  const answering = mcp.callTool(context, params, admit).then(
    (result) => resultMessage(id, result),
    async (err: unknown) => {
      const refusal = await gate.refuse(context, err);
      if (refusal.options.retryAfterSeconds !== undefined && !res.headersSent) res.setHeader('Retry-After', String(refusal.options.retryAfterSeconds));
      return refusalMessage(id, refusal, l.requestId);
    },
  ).then((answer) => (revision.era === 'modern' ? modernAnswer('tools/call', answer) : answer));
  await answerInTime(req, res, answering, deps.eventStreamAfterMs ?? EVENT_STREAM_AFTER_MS);
}

/** The answer as JSON when it comes soon; else, for a client that takes an event stream, an SSE stream that keeps the connection alive until it comes. */
async function answerInTime(req: HttpRequest, res: HttpResponse, answering: Promise<object>, streamAfterMs: number): Promise<void> {
  const accepts = /\btext\/event-stream\b/i.test(req.headers.accept ?? '');
  let streaming = false;
  const keepAlive = accepts
    ? setInterval(() => {
      if (res.destroyed) return;
      if (!streaming) res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' });
      streaming = true;
      res.write(': the tool is still running\n\n');
    }, streamAfterMs)
    : undefined;
  try {
    const message = await answering;
    if (res.destroyed) return;
    if (streaming) res.end(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    else sendJson(res, 200, message);
  } finally {
    clearInterval(keepAlive);
  }
}

function errorAnswer(id: JsonRpcId, err: unknown, logger: Logger, requestId: string): object {
  if (err instanceof InvalidMessage) return errorMessage(id, err.code, err.message, err.options.data);
  let refusal: GatewayError | undefined = toGatewayError(err);
  if (!refusal) {
    logger.error('unhandled error', { request_id: requestId, err });
    refusal = Errors.internal();
  }
  return refusalMessage(id, refusal, requestId);
}
