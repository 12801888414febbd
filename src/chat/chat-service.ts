import type { Candidate, Catalog } from '../catalog/catalog';
import type { Settlement } from '../billing/usage-ticket';
import { GatewayError } from '../http/errors';
import { toGatewayError } from '../http/map-upstream-error';
import type { RequestContext } from '../http/request-context';
import { parseRequest } from '../http/validate';
import type { GatewayMetrics } from '../observability/metrics';
import type { ChatAdapter, ChatCall, ChatStreamEvent, UpstreamChatRequest } from '../providers/chat-adapter';
import type { ChatCompletion, ChatCompletionChunk } from '../providers/chat-types';
import { chatAdapterFor } from '../providers/registry';
import { UnsupportedParameterError } from '../providers/unsupported-parameter';
import { UpstreamError } from '../providers/upstream-error';
import type { ProviderUsage } from '../providers/usage';
import { filterCapableCandidates } from './chat-capabilities';
import { chatRequestSchema, type ChatRequest } from './chat-request-schema';
import { clientUsageFromMeasured, estimateLocally, measuredFromProvider, toClientUsage, withLocalOutput, withReasoningEstimate } from './chat-usage';
import { applyReasoningRules } from './reasoning/reasoning-rules';
import { splitThinkingSuffix } from './reasoning/thinking-suffix';
import { explainUsagePolicyRefusal } from './reasoning/usage-policy-error';

export const CHAT_ENDPOINT = '/v1/chat/completions';

/** Client disconnected before the answer was complete (nginx's convention). */
const CLIENT_CLOSED_REQUEST = 499;

/** A route to try, with the request as this route's model family takes it. */
interface PreparedCandidate extends Candidate {
  upstreamRequest: UpstreamChatRequest;
}

interface Attempt {
  candidate: Candidate;
  adapter: ChatAdapter;
  call: ChatCall;
  attempts: number;
}

/**
 * Chat completions: validation, routing with fallback, the upstream call,
 * and the usage record. REST (JSON or SSE) and the GraphQL subscription both
 * call this service; they differ only in how they write what it yields.
 */
export class ChatService {
  constructor(
    private readonly catalog: Catalog,
    private readonly metrics: GatewayMetrics,
  ) {}

  /**
   * Validates, routes and applies each candidate model's reasoning rules;
   * throws a GatewayError (400/403/404) before any upstream call.
   */
  prepare(ctx: RequestContext, raw: unknown): { req: ChatRequest; candidates: PreparedCandidate[] } {
    ctx.ticket.noteRequestedModel(raw && typeof raw === 'object' ? (raw as { model?: unknown }).model : undefined);
    const req = parseRequest(chatRequestSchema, raw);
    const { model: name, thinkingSuffix } = splitThinkingSuffix(req.model);
    const capable = filterCapableCandidates(this.catalog.resolve(name, ctx.principal, 'chat', CHAT_ENDPOINT), req);
    let firstError: unknown;
    const candidates = capable.flatMap((candidate) => {
      try {
        return [{ ...candidate, upstreamRequest: applyReasoningRules(candidate.model.config, req, thinkingSuffix) }];
      } catch (err) {
        firstError ??= err;
        return [];
      }
    });
    if (!candidates.length) throw firstError;
    return { req, candidates };
  }

  async complete(ctx: RequestContext, raw: unknown): Promise<ChatCompletion> {
    const { req, candidates } = this.prepare(ctx, raw);
    let attempts = 0;
    let earlier: unknown;
    for (const [i, candidate] of candidates.entries()) {
      const attempt = this.attempt(ctx, candidate, ++attempts);
      try {
        const result = await attempt.adapter.complete(attempt.call);
        const completion = this.present(ctx, req, result.completion);
        const reasoningText = completion.choices.map((c) => c.message.reasoning_content ?? '').join('');
        const reported = result.usage && withReasoningEstimate(result.usage, reasoningText);
        const usage = reported
          ? measuredFromProvider(reported.usage, reported.estimated)
          : estimateLocally(req, completion.choices.map(answerText).join(''), candidate.route.provider.type);
        completion.usage = reported ? toClientUsage(reported.usage) : clientUsageFromMeasured(usage);
        await ctx.ticket.settle(this.settlement(attempt, { statusCode: 200, usage, charge: true, ttftMs: null, wasStreaming: false, errorCode: null }));
        return completion;
      } catch (err) {
        if (this.shouldFallBack(err, ctx, i, candidates.length, candidate)) {
          earlier = mostTelling(earlier, err);
          continue;
        }
        throw await this.failed(ctx, mostTelling(earlier, err), attempt, false);
      }
    }
    throw new Error('unreachable: the last candidate never falls back');
  }

  /**
   * Starts a streamed answer. Resolves once the upstream produced its first
   * event, so that a failure before any byte reached the client can still
   * move to the next route; after that, the stream is committed.
   */
  async stream(ctx: RequestContext, raw: unknown): Promise<AsyncGenerator<ChatCompletionChunk>> {
    const { req, candidates } = this.prepare(ctx, raw);
    if (!req.stream) throw new GatewayError(400, 'invalid_parameter', '"stream" must be true for a streamed answer.', { param: 'stream' });
    let attempts = 0;
    let earlier: unknown;
    for (const [i, candidate] of candidates.entries()) {
      const attempt = this.attempt(ctx, candidate, ++attempts);
      const upstream = attempt.adapter.stream(attempt.call);
      try {
        const first = await upstream.next();
        return this.relay(ctx, req, attempt, upstream, first);
      } catch (err) {
        if (this.shouldFallBack(err, ctx, i, candidates.length, candidate)) {
          earlier = mostTelling(earlier, err);
          continue;
        }
        throw await this.failed(ctx, mostTelling(earlier, err), attempt, true);
      }
    }
    throw new Error('unreachable: the last candidate never falls back');
  }

  private async *relay(
    ctx: RequestContext,
    req: ChatRequest,
    attempt: Attempt,
    upstream: AsyncGenerator<ChatStreamEvent>,
    first: IteratorResult<ChatStreamEvent>,
  ): AsyncGenerator<ChatCompletionChunk> {
    const id = completionId(ctx.requestId);
    const created = Math.floor(Date.now() / 1000);
    let providerUsage: ProviderUsage | null = null;
    let usageIsPartial = false;
    let outputText = '';
    let reasoningText = '';
    let ttftMs: number | null = null;
    let finished = false;
    let failure: unknown;
    try {
      for (let step = first; !step.done; step = await upstream.next()) {
        const event = step.value;
        if (event.type === 'usage') {
          providerUsage = event.usage;
          usageIsPartial = Boolean(event.partial);
          continue;
        }
        const chunk = event.chunk;
        chunk.id = id;
        chunk.model = req.model;
        chunk.created = created;
        for (const choice of chunk.choices) {
          const d = choice.delta;
          if (d.content) outputText += d.content;
          if (d.reasoning_content) {
            outputText += d.reasoning_content;
            reasoningText += d.reasoning_content;
          }
          if (d.tool_calls) for (const t of d.tool_calls) outputText += (t.function?.name ?? '') + (t.function?.arguments ?? '');
        }
        if (ttftMs === null && outputText) ttftMs = ctx.ticket.elapsedMs();
        yield chunk;
      }
      finished = true;
    } catch (err) {
      failure = err;
    } finally {
      // Also reached when the writer stops early (client gone): stop the upstream and record what was used.
      if (!finished) await upstream.return(undefined).catch(() => undefined);
      const clientGone = ctx.signal.aborted;
      const complete = providerUsage && !usageIsPartial;
      const reported = complete ? withReasoningEstimate(providerUsage!, reasoningText) : null;
      if (reported) providerUsage = reported.usage;
      const usage = reported
        ? measuredFromProvider(reported.usage, reported.estimated)
        : providerUsage
          ? withLocalOutput(providerUsage, outputText)
          : estimateLocally(req, outputText, attempt.candidate.route.provider.type);
      const error = failure && !clientGone ? toGatewayError(failure) : undefined;
      const settlement = this.settlement(attempt, {
        statusCode: finished ? 200 : clientGone ? CLIENT_CLOSED_REQUEST : error?.status ?? 500,
        usage,
        // Tokens a client abandoned were still produced for it; a failed upstream is not charged.
        charge: finished || clientGone,
        ttftMs,
        wasStreaming: true,
        errorCode: finished ? null : clientGone ? 'client_closed_request' : error?.code ?? 'internal_error',
      });
      if (failure && !clientGone) this.countUpstreamError(attempt.candidate, failure);
      await ctx.ticket.settle(settlement);
      if (finished && req.stream_options?.include_usage) {
        yield { id, object: 'chat.completion.chunk', created, model: req.model, choices: [], usage: providerUsage ? toClientUsage(providerUsage) : clientUsageFromMeasured(usage) };
      }
    }
    if (failure && !ctx.signal.aborted) throw toGatewayError(failure) ?? failure;
  }

  private attempt(ctx: RequestContext, candidate: PreparedCandidate, attempts: number): Attempt {
    const adapter = chatAdapterFor(candidate.route.provider.type);
    if (!adapter) throw new GatewayError(501, 'provider_not_supported', `No chat adapter for provider type "${candidate.route.provider.type}".`);
    return {
      candidate,
      adapter,
      attempts,
      call: {
        provider: candidate.route.provider,
        upstreamModel: candidate.route.upstreamModel,
        family: candidate.model.config.family,
        request: candidate.upstreamRequest,
        signal: ctx.signal,
      },
    };
  }

  private shouldFallBack(err: unknown, ctx: RequestContext, index: number, total: number, candidate: Candidate): boolean {
    // A route whose protocol cannot express the request is skipped before any call is made to it.
    if (err instanceof UnsupportedParameterError) return index < total - 1;
    if (!(err instanceof UpstreamError) || ctx.signal.aborted) return false;
    this.countUpstreamError(candidate, err);
    if (!err.details.retryable || index === total - 1) return false;
    this.metrics.upstreamFallbacks.inc({ provider: candidate.route.provider.name });
    ctx.logger.warn('upstream failed before the first byte; trying the next route', {
      provider: candidate.route.provider.name, upstream_status: err.details.status, reason: err.message,
    });
    return true;
  }

  private countUpstreamError(candidate: Candidate, err: unknown): void {
    if (err instanceof UpstreamError) this.metrics.upstreamErrors.inc({ provider: candidate.route.provider.name, status: String(err.details.status) });
  }

  private async failed(ctx: RequestContext, err: unknown, attempt: Attempt, wasStreaming: boolean): Promise<unknown> {
    const gatewayError = toGatewayError(err);
    const mapped = gatewayError && explainUsagePolicyRefusal(attempt.candidate.model.config.family, gatewayError);
    if (ctx.signal.aborted) {
      await ctx.ticket.settle(this.settlement(attempt, { statusCode: CLIENT_CLOSED_REQUEST, usage: null, charge: false, ttftMs: null, wasStreaming, errorCode: 'client_closed_request' }));
      return err;
    }
    if (!mapped) return err;
    await ctx.ticket.settle(this.settlement(attempt, { statusCode: mapped.status, usage: null, charge: false, ttftMs: null, wasStreaming, errorCode: mapped.code }));
    return mapped;
  }

  private settlement(attempt: Attempt, s: Omit<Settlement, 'pricedAs' | 'servedBy'>): Settlement {
    const { candidate } = attempt;
    return {
      ...s,
      pricedAs: { modelId: candidate.model.id, lane: candidate.route.lane },
      servedBy: { provider: candidate.route.provider.name, upstream_model: candidate.route.upstreamModel, lane: candidate.route.lane, attempts: attempt.attempts },
    };
  }

  /** The gateway's own id and the requested model name: which upstream served it stays internal. */
  private present(ctx: RequestContext, req: ChatRequest, completion: ChatCompletion): ChatCompletion {
    completion.id = completionId(ctx.requestId);
    completion.model = req.model;
    return completion;
  }
}

/**
 * Which failure the client hears about when several routes failed: an
 * upstream's own failure says more than a later route's inability to
 * express the request.
 */
function mostTelling(earlier: unknown, latest: unknown): unknown {
  return latest instanceof UnsupportedParameterError && earlier instanceof UpstreamError ? earlier : latest;
}

/** Everything the model produced in one choice, as the local estimate counts it. */
function answerText(choice: ChatCompletion['choices'][number]): string {
  const m = choice.message;
  return (m.content ?? '') + (m.reasoning_content ?? '') + (m.tool_calls ?? []).map((t) => t.function.name + t.function.arguments).join('');
}

export function completionId(requestId: string): string {
  return `chatcmpl-${requestId.replace(/^req_/, '')}`;
}
