import type { Span } from '@opentelemetry/api';
import type { Candidate, Catalog } from '../catalog/catalog';
import type { EndpointType } from '../config/gateway-config-schema';
import { Errors } from '../errors/errors';
import { GatewayError } from '../errors/gateway-error';
import { parseRequest } from '../errors/parse-request';
import { endUserIdentity } from '../keys/end-user-identity';
import { spendEstimateOf } from '../model-call/call-spend-estimate';
import type { RequestContext } from '../model-call/request-context';
import { settlementOf, tryRoutes, type RouteAttempt } from '../model-call/route-attempts';
import { relayStream } from '../model-call/stream-relay';
import type { Routing } from '../model-call/routing';
import type { ChatAdapter, ChatCall, ChatStreamEvent, UpstreamChatRequest } from '../providers/chat-adapter';
import { chatRequestSchema, type ChatRequest } from '../providers/chat-request';
import type { ChatCompletion, ChatCompletionChunk } from '../providers/chat-types';
import { chatAdapterFor } from '../providers/registry';
import type { ProviderUsage } from '../providers/usage';
import { measuredFromProvider } from '../billing/measured-usage';
import { filterCapableCandidates } from './chat-capabilities';
import { estimateLocally } from '../billing/local-usage-estimate';
import { clientUsageFromMeasured, toClientUsage, withLocalOutput, withReasoningEstimate } from './chat-usage';
import { applyReasoningRules } from './reasoning/reasoning-rules';
import { splitThinkingSuffix } from './reasoning/thinking-suffix';
import { explainUsagePolicyRefusal } from './reasoning/usage-policy-error';
import type { McpToolsForModels } from '../mcp/mcp-tools-for-models';
import { runMcpToolLoop, splitMcpTools, type SplitMcpTools } from './mcp-tool-loop';
import { streamMcpToolLoop } from './mcp-tool-loop-stream';

export const CHAT_ENDPOINT = '/v1/chat/completions';

/** The endpoint a chat request resolves its model for: chat itself, or an endpoint bridged onto chat (Responses). */
export interface ChatEntry {
  type: EndpointType;
  path: string;
}

const CHAT: ChatEntry = { type: 'chat', path: CHAT_ENDPOINT };

/** A route to try, with the request as this route's model family takes it. */
interface PreparedCandidate extends Candidate {
  upstreamRequest: UpstreamChatRequest;
}

/**
 * Chat completions: validation, routing with fallback, the upstream call,
 * and the usage record. REST (JSON or SSE) and the GraphQL subscription both
 * call this service; they differ only in how they write what it yields.
 */
export class ChatService {
  constructor(
    private readonly catalog: Catalog,
    private readonly routing: Routing,
    /** Runs the tool loop of requests that name MCP tools; without it they are refused. */
    private readonly mcpTools?: McpToolsForModels,
  ) {}

  /**
   * Validates, routes and applies each candidate model's reasoning rules;
   * throws a GatewayError (400/403/404) before any upstream call.
   */
  prepare(ctx: RequestContext, raw: unknown, entry: ChatEntry = CHAT): { req: ChatRequest; candidates: PreparedCandidate[] } {
    ctx.ticket.noteRequestedModel(raw && typeof raw === 'object' ? (raw as { model?: unknown }).model : undefined);
    const req = parseRequest(chatRequestSchema, raw);
    if (req.user) req.user = endUserIdentity(ctx.principal, req.user);
    if (req.prompt_cache_key) req.prompt_cache_key = endUserIdentity(ctx.principal, req.prompt_cache_key);
    const { model: name, thinkingSuffix } = splitThinkingSuffix(req.model);
    const capable = filterCapableCandidates(this.catalog.resolve(name, ctx.principal, entry.type, entry.path), req);
    let firstError: unknown;
    const candidates = capable.flatMap((candidate) => {
      try {
        const upstreamRequest = applyReasoningRules(candidate.model.config, req, thinkingSuffix);
        if (candidate.model.config.capabilities.structured_outputs) upstreamRequest.structuredOutputs = true;
        return [{ ...candidate, upstreamRequest }];
      } catch (err) {
        firstError ??= err;
        return [];
      }
    });
    if (!candidates.length) throw firstError;
    return { req, candidates };
  }

  /** The answer; for a request that names MCP tools, the answer after the tool loop the gateway runs (chat/mcp-tool-loop.ts). */
  async complete(ctx: RequestContext, raw: unknown, entry: ChatEntry = CHAT): Promise<ChatCompletion> {
    const split = splitMcpTools(raw);
    if (!split) return this.completeTurn(ctx, raw, entry);
    const completion = await runMcpToolLoop(ctx, split, this.mcpToolsFor(ctx, split), entry.path, (turn, body) => this.completeTurn(turn, body, entry));
    completion.id = completionId(ctx.requestId);
    return completion;
  }

  /** The MCP tools a request's loop runs, the request's model noted on its record first (its tools are read before the request is). */
  private mcpToolsFor(ctx: RequestContext, split: SplitMcpTools): McpToolsForModels {
    ctx.ticket.noteRequestedModel(split.body.model);
    if (!this.mcpTools) throw new GatewayError('invalid_parameter', 'MCP tools are not served by this gateway.', { param: `tools[${split.indexes[0]}]` });
    return this.mcpTools;
  }

  private async completeTurn(ctx: RequestContext, raw: unknown, entry: ChatEntry): Promise<ChatCompletion> {
    const { req, candidates } = this.prepare(ctx, raw, entry);
    return tryRoutes(ctx, this.routing, candidates, async (attempt) => {
      const { candidate } = attempt;
      const result = await adapterFor(candidate).complete(this.call(ctx, attempt));
      const completion = this.present(ctx, req, result.completion);
      noteOnSpan(attempt.span, req, completion, this.routing.tracing.recordsContent);
      const reasoningText = completion.choices.map((c) => c.message.reasoning_content ?? '').join('');
      const reported = result.usage && withReasoningEstimate(result.usage, reasoningText);
      const usage = reported
        ? measuredFromProvider(reported.usage, reported.estimated)
        : estimateLocally(req, completion.choices.map(answerText).join(''), candidate.route.provider.type);
      completion.usage = reported ? toClientUsage(reported.usage) : clientUsageFromMeasured(usage);
      await ctx.ticket.settle(settlementOf(attempt, { statusCode: 200, usage, charge: true, ttftMs: null, wasStreaming: false, errorCode: null }));
      return completion;
    }, { explain: explainRefusal, abandonedUsage: ({ candidate }) => estimateLocally(req, '', candidate.route.provider.type), spend: () => spendEstimateOf('chat', raw) });
  }

  /**
   * Starts a streamed answer. Resolves once the upstream produced its first
   * event, so that a failure before any byte reached the client can still
   * move to the next route; after that, the stream is committed. For a
   * request that names MCP tools, the stream of the tool loop the gateway
   * runs (chat/mcp-tool-loop-stream.ts), each turn streamed as here.
   */
  async stream(ctx: RequestContext, raw: unknown, entry: ChatEntry = CHAT): Promise<AsyncGenerator<ChatCompletionChunk>> {
    const split = splitMcpTools(raw);
    if (!split) return this.streamTurn(ctx, raw, entry);
    return streamMcpToolLoop(ctx, split, this.mcpToolsFor(ctx, split), entry.path, (turn, body) => this.streamTurn(turn, body, entry));
  }

  private async streamTurn(ctx: RequestContext, raw: unknown, entry: ChatEntry): Promise<AsyncGenerator<ChatCompletionChunk>> {
    const { req, candidates } = this.prepare(ctx, raw, entry);
    if (!req.stream) throw new GatewayError('invalid_parameter', '"stream" must be true for a streamed answer.', { param: 'stream' });
    return tryRoutes(ctx, this.routing, candidates, async (attempt) => {
      const upstream = adapterFor(attempt.candidate).stream(this.call(ctx, attempt));
      const first = await upstream.next();
      return this.relay(ctx, req, attempt, upstream, first);
    }, { explain: explainRefusal, wasStreaming: true, spend: () => spendEstimateOf('chat', raw) });
  }

  private relay(
    ctx: RequestContext,
    req: ChatRequest,
    attempt: RouteAttempt<PreparedCandidate>,
    upstream: AsyncGenerator<ChatStreamEvent>,
    first: IteratorResult<ChatStreamEvent>,
  ): AsyncGenerator<ChatCompletionChunk> {
    const id = completionId(ctx.requestId);
    const created = Math.floor(Date.now() / 1000);
    let providerUsage: ProviderUsage | null = null;
    let usageIsPartial = false;
    let outputText = '';
    let reasoningText = '';
    return relayStream(ctx, this.routing.metrics, attempt, upstream, first, {
      forward: (event) => {
        if (event.type === 'usage') {
          providerUsage = event.usage;
          usageIsPartial = Boolean(event.partial);
          return undefined;
        }
        const chunk = event.chunk;
        chunk.id = id;
        chunk.model = req.model;
        chunk.created = created;
        for (const choice of chunk.choices) {
          if (choice.finish_reason) ctx.span?.setAttribute('gen_ai.response.finish_reasons', [choice.finish_reason]);
          const d = choice.delta;
          if (d.content) outputText += d.content;
          if (d.reasoning_content) {
            outputText += d.reasoning_content;
            reasoningText += d.reasoning_content;
          }
          if (d.tool_calls) for (const t of d.tool_calls) outputText += (t.function?.name ?? '') + (t.function?.arguments ?? '');
        }
        return chunk;
      },
      hasOutput: () => outputText !== '',
      usage: () => {
        const reported = providerUsage && !usageIsPartial ? withReasoningEstimate(providerUsage, reasoningText) : null;
        if (reported) providerUsage = reported.usage;
        if (reported) return measuredFromProvider(reported.usage, reported.estimated);
        return providerUsage ? withLocalOutput(providerUsage, outputText) : estimateLocally(req, outputText, attempt.candidate.route.provider.type);
      },
      trailer: (usage) => req.stream_options?.include_usage
        ? { id, object: 'chat.completion.chunk', created, model: req.model, choices: [], usage: providerUsage ? toClientUsage(providerUsage) : clientUsageFromMeasured(usage) }
        : undefined,
    });
  }

  private call(ctx: RequestContext, { candidate, span }: RouteAttempt<PreparedCandidate>): ChatCall {
    return {
      provider: candidate.route.provider,
      upstreamModel: candidate.route.upstreamModel,
      family: candidate.model.config.family,
      request: candidate.upstreamRequest,
      signal: ctx.signal,
      span,
    };
  }

  /** The gateway's own id and the requested model name: which upstream served it stays internal. */
  private present(ctx: RequestContext, req: ChatRequest, completion: ChatCompletion): ChatCompletion {
    completion.id = completionId(ctx.requestId);
    completion.model = req.model;
    return completion;
  }
}

function adapterFor(candidate: Candidate): ChatAdapter {
  const adapter = chatAdapterFor(candidate.route.provider.type);
  if (!adapter) throw Errors.providerNotSupported(candidate.route.provider.type, 'chat');
  return adapter;
}

function explainRefusal(err: GatewayError, attempt: RouteAttempt): GatewayError {
  return explainUsagePolicyRefusal(attempt.candidate.model.config.family, err);
}

/** Everything the model produced in one choice, as the local estimate counts it. */
function answerText(choice: ChatCompletion['choices'][number]): string {
  const m = choice.message;
  return (m.content ?? '') + (m.reasoning_content ?? '') + (m.tool_calls ?? []).map((t) => t.function.name + t.function.arguments).join('');
}

export function completionId(requestId: string): string {
  return `chatcmpl-${requestId.replace(/^req_/, '')}`;
}

/**
 * The answer on the attempt's span, while traces are on: its finish
 * reasons, and the prompt and completion only when the operator opted in
 * (GATEWAY_TRACE_CONTENT=true).
 */
function noteOnSpan(span: Span | undefined, req: ChatRequest, completion: ChatCompletion, recordContent: boolean): void {
  if (!span?.isRecording()) return;
  span.setAttribute('gen_ai.response.finish_reasons', completion.choices.map((c) => c.finish_reason ?? 'unknown'));
  if (recordContent) {
    span.setAttribute('gen_ai.input.messages', JSON.stringify(req.messages));
    span.setAttribute('gen_ai.output.messages', JSON.stringify(completion.choices.map((c) => c.message)));
  }
}
