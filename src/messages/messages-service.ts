import { countPromptTokens } from '../billing/local-token-count';
import { measuredFromProvider } from '../billing/measured-usage';
import type { MeasuredUsage } from '../billing/usage-record';
import type { Candidate, Catalog } from '../catalog/catalog';
import { dialectMode } from '../catalog/catalog-entry';
import type { ChatEntry, ChatService } from '../chat/chat-service';
import { withLocalOutput, withReasoningEstimate } from '../chat/chat-usage';
import { splitThinkingSuffix } from '../chat/reasoning/thinking-suffix';
import { parseRequest } from '../errors/parse-request';
import { endUserIdentity } from '../keys/end-user-identity';
import { spendEstimateOf } from '../model-call/call-spend-estimate';
import type { RequestContext } from '../model-call/request-context';
import { settlementOf, tryRoutes, type RouteAttempt } from '../model-call/route-attempts';
import type { Routing } from '../model-call/routing';
import { relayStream } from '../model-call/stream-relay';
import { anthropicMessagesNative, type AnthropicMessagesCall, type AnthropicMessagesStreamEvent } from '../providers/anthropic/anthropic-messages-native';
import { chatRequestSchema } from '../providers/chat-request';
import type { ProviderUsage } from '../providers/usage';
import { toMessage } from './bridge/chat-to-message';
import { toMessageEvents, type MessageEvent } from './bridge/message-events';
import { toChatRequest } from './bridge/messages-to-chat';
import { countTokensRequestSchema, messagesRequestSchema, type CountTokensRequest, type MessagesRequest } from './messages-request-schema';
import { estimateMessagesUsage } from './messages-usage-estimate';
import { checkNativeServable, forwardedBetas, nativeMessagesBody } from './native-request-fields';
import { checkServableContent } from './servable-content';

export const MESSAGES_ENDPOINT = '/v1/messages';
export const COUNT_TOKENS_ENDPOINT = '/v1/messages/count_tokens';
const MESSAGES_ENTRY: ChatEntry = { type: 'chat', path: MESSAGES_ENDPOINT };

/** What the client sent beside the body that the service reads: the `anthropic-beta` header. */
export interface MessagesHeaders {
  betas: string | string[] | undefined;
}

/** A request checked for its route: native (forwarded to Anthropic channels) or bridged (a chat request for the chat core). */
type Prepared<R> =
  | { req: R; native: Candidate[]; forward: Record<string, unknown>; betas: string[] }
  | { req: R; native: null; chatBody: Record<string, unknown> };

/**
 * Anthropic's Messages API (`POST /v1/messages`, `/v1/messages/count_tokens`)
 * for every chat model of the catalog. A model whose every route is an
 * Anthropic channel is served natively: the allowlisted request goes up as
 * the client sent it, the answer and its events come back as Anthropic sent
 * them (the id and model made the gateway's), the usage is Anthropic's own;
 * routing, fallback, the spend hold and the usage record are `tryRoutes`'.
 * Any other model, or a route policy that mixes providers, goes through the
 * chat core: the request becomes a chat request (so the target family's
 * reasoning rules apply), `ChatService` serves it, and its completion or
 * chunks become a Message or its events. Either way the record's endpoint is
 * `/v1/messages` and its amount is what the same upstream usage costs
 * through chat completions.
 */
export class MessagesService {
  constructor(
    private readonly catalog: Catalog,
    private readonly chat: ChatService,
    private readonly routing: Routing,
  ) {}

  async create(ctx: RequestContext, raw: unknown, headers: MessagesHeaders): Promise<Record<string, unknown>> {
    const prepared = this.prepare(ctx, raw, headers, parseMessagesRequest, MESSAGES_ENDPOINT);
    const id = messageId(ctx.requestId);
    const { req } = prepared;
    if (!prepared.native) return toMessage(await this.chat.complete(ctx, prepared.chatBody, MESSAGES_ENTRY), id, req.model);
    return tryRoutes(ctx, this.routing, prepared.native, async (attempt) => {
      const result = await anthropicMessagesNative.create(this.call(ctx, attempt, prepared));
      const message = present(result.message, id, req.model);
      const reported = withReasoningEstimate(result.usage, result.thinkingText);
      const usage = measuredFromProvider(reported.usage, reported.estimated);
      await ctx.ticket.settle(settlementOf(attempt, { statusCode: 200, usage, charge: true, ttftMs: null, wasStreaming: false, errorCode: null }));
      return message;
    }, {
      abandonedUsage: ({ candidate }) => estimateMessagesUsage(req, '', candidate.route.provider.type),
      spend: () => spendEstimateOf('messages', raw),
    });
  }

  /**
   * A streamed message. Resolves once the upstream accepted the call, so
   * that a failure before any byte reached the client can still move to the
   * next route; after that, the stream is committed.
   */
  async stream(ctx: RequestContext, raw: unknown, headers: MessagesHeaders): Promise<AsyncGenerator<MessageEvent>> {
    const prepared = this.prepare(ctx, raw, headers, parseMessagesRequest, MESSAGES_ENDPOINT);
    const id = messageId(ctx.requestId);
    const { req } = prepared;
    if (!prepared.native) return toMessageEvents(await this.chat.stream(ctx, prepared.chatBody, MESSAGES_ENTRY), id, req.model);
    return tryRoutes(ctx, this.routing, prepared.native, async (attempt) => {
      const upstream = anthropicMessagesNative.stream(this.call(ctx, attempt, prepared));
      const first = await upstream.next();
      return this.relay(ctx, req, attempt, upstream, first, id);
    }, { wasStreaming: true, spend: () => spendEstimateOf('messages', raw) });
  }

  /**
   * The prompt's tokens: Anthropic's own count for a native model (free
   * upstream), the gateway's local count for any other. One usage record,
   * uncharged: counting costs nothing.
   */
  async countTokens(ctx: RequestContext, raw: unknown, headers: MessagesHeaders): Promise<{ input_tokens: number }> {
    const prepared = this.prepare(ctx, raw, headers, (value) => parseRequest(countTokensRequestSchema, value), COUNT_TOKENS_ENDPOINT);
    if (!prepared.native) {
      const chatReq = parseRequest(chatRequestSchema, prepared.chatBody);
      const inputTokens = countPromptTokens(chatReq.messages, chatReq.tools);
      await ctx.ticket.settle({ statusCode: 200, usage: null, pricedAs: null, charge: false, ttftMs: null, wasStreaming: false, servedBy: null, errorCode: null });
      return { input_tokens: inputTokens };
    }
    return tryRoutes(ctx, this.routing, prepared.native, async (attempt) => {
      const inputTokens = await anthropicMessagesNative.countTokens(this.call(ctx, attempt, prepared));
      await ctx.ticket.settle(settlementOf(attempt, { statusCode: 200, usage: null, charge: false, ttftMs: null, wasStreaming: false, errorCode: null }));
      return { input_tokens: inputTokens };
    });
  }

  /** Validates, resolves the model, picks native or bridge and checks what that route can serve: all before any hold or upstream call. */
  private prepare<R extends CountTokensRequest>(ctx: RequestContext, raw: unknown, headers: MessagesHeaders, parse: (raw: unknown) => R, path: string): Prepared<R> {
    ctx.ticket.noteRequestedModel(raw && typeof raw === 'object' ? (raw as { model?: unknown }).model : undefined);
    const req = parse(raw);
    const { model, thinkingSuffix } = splitThinkingSuffix(req.model);
    const candidates = this.catalog.resolve(model, ctx.principal, 'chat', path);
    // A `#thinking` suffix is the chat core's to apply.
    const native = !thinkingSuffix && dialectMode(candidates, 'anthropic') === 'native';
    checkServableContent(req, native);
    if (!native) return { req, native: null, chatBody: toChatRequest(req) };
    const body = raw as Record<string, unknown>;
    checkNativeServable(body);
    const betas = forwardedBetas(headers.betas);
    const forward = nativeMessagesBody(body, (value) => endUserIdentity(ctx.principal, value), path === COUNT_TOKENS_ENDPOINT);
    return { req, native: candidates, forward, betas };
  }

  private call(ctx: RequestContext, { candidate, span }: RouteAttempt, prepared: { forward: Record<string, unknown>; betas: string[] }): AnthropicMessagesCall {
    return { provider: candidate.route.provider, upstreamModel: candidate.route.upstreamModel, body: prepared.forward, betas: prepared.betas, signal: ctx.signal, span };
  }

  /** Passes the upstream's events through in order (the message's id and model made the gateway's) and settles the usage record at the end. */
  private relay(
    ctx: RequestContext,
    req: MessagesRequest,
    attempt: RouteAttempt,
    upstream: AsyncGenerator<AnthropicMessagesStreamEvent>,
    first: IteratorResult<AnthropicMessagesStreamEvent>,
    id: string,
  ): AsyncGenerator<MessageEvent> {
    let providerUsage: ProviderUsage | null = null;
    let usageIsPartial = true;
    let outputText = '';
    let thinkingText = '';
    return relayStream(ctx, this.routing.metrics, attempt, upstream, first, {
      forward: (event) => {
        if (event.type === 'usage') {
          providerUsage = event.usage;
          usageIsPartial = event.partial;
          return undefined;
        }
        const data = event.data;
        if (data.type === 'message_start' && data.message && typeof data.message === 'object') present(data.message as Record<string, unknown>, id, req.model);
        const delta = data.type === 'content_block_delta' ? (data.delta as Record<string, unknown> | undefined) : undefined;
        if (typeof delta?.text === 'string') outputText += delta.text;
        if (typeof delta?.partial_json === 'string') outputText += delta.partial_json;
        if (typeof delta?.thinking === 'string') {
          outputText += delta.thinking;
          thinkingText += delta.thinking;
        }
        return data as MessageEvent;
      },
      hasOutput: () => outputText !== '',
      usage: (): MeasuredUsage => {
        if (providerUsage && !usageIsPartial) {
          const reported = withReasoningEstimate(providerUsage, thinkingText);
          return measuredFromProvider(reported.usage, reported.estimated);
        }
        return providerUsage ? withLocalOutput(providerUsage, outputText) : estimateMessagesUsage(req, outputText, attempt.candidate.route.provider.type);
      },
    });
  }
}

function parseMessagesRequest(raw: unknown): MessagesRequest {
  return parseRequest(messagesRequestSchema, raw);
}

/** The gateway's id for a message: which upstream served it stays internal. */
export function messageId(requestId: string): string {
  return `msg_${requestId.replace(/^req_/, '')}`;
}

/** The gateway's id and the requested model name on an upstream's message. */
function present(message: Record<string, unknown>, id: string, model: string): Record<string, unknown> {
  message.id = id;
  message.model = model;
  return message;
}
