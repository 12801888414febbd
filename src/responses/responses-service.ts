import { measuredFromProvider } from '../billing/measured-usage';
import { paidServiceTier, serviceTierDimension, withServiceTier } from '../billing/service-tier';
import type { Candidate, Catalog } from '../catalog/catalog';
import { endpointMode } from '../catalog/catalog-entry';
import type { ChatService } from '../chat/chat-service';
import { parseRequest } from '../errors/parse-request';
import { endUserIdentity } from '../keys/end-user-identity';
import type { RequestContext } from '../model-call/request-context';
import { spendEstimateOf } from '../model-call/call-spend-estimate';
import { settlementOf, tryRoutes, type RouteAttempt } from '../model-call/route-attempts';
import { relayStream } from '../model-call/stream-relay';
import type { GatewayMetrics } from '../observability/metrics';
import { openaiResponsesAdapter, type ResponsesCall, type ResponsesStreamEvent } from '../providers/openai/openai-responses';
import type { ProviderUsage } from '../providers/usage';
import { checkBridgeable } from './bridge/bridge-limits';
import { toResponse } from './bridge/chat-to-response';
import { toResponseEvents, type ResponseEvent } from './bridge/response-events';
import { toChatRequest } from './bridge/responses-to-chat';
import { dereferenceFiles, type OwnedFiles } from './file-dereference';
import { checkNativeServable, END_USER_FIELDS, nativeRequestBody } from './native-request-fields';
import { responseId } from './response-object';
import { responsesRequestSchema, type ResponsesRequest } from './responses-request-schema';
import { estimateResponsesUsage } from './responses-usage';

export const RESPONSES_ENDPOINT = '/v1/responses';
const RESPONSES_ENTRY = { type: 'responses' as const, path: RESPONSES_ENDPOINT };

/** What a Responses call answers: the body (an object, or events) and the headers that go with it. */
export interface ResponsesAnswer<T> {
  body: T;
  headers: Record<string, string>;
}

interface Prepared {
  req: ResponsesRequest;
  /** What a native route forwards: the allowlisted fields of the request, files dereferenced (native-request-fields.ts). */
  forward: Record<string, unknown>;
  native: Candidate[];
  /** The paid service tier asked for (every native candidate prices it), billed unless the upstream says it served another. */
  tier: string | undefined;
  headers: Record<string, string>;
}

/**
 * `POST /v1/responses`. A model whose catalog entry serves `/v1/responses`
 * natively gets the request forwarded to an upstream that speaks Responses
 * (its answer and its events passed through, ids and model name made the
 * gateway's); any other goes through the stateless bridge: the request
 * becomes a chat request, the chat service serves it (routing, reasoning
 * rules, fallback, usage record), and its answer becomes a response. Either
 * way, files named by id are dereferenced first, and the usage record is
 * written like chat's.
 */
export class ResponsesService {
  constructor(
    private readonly catalog: Catalog,
    private readonly chat: ChatService,
    private readonly files: OwnedFiles,
    private readonly metrics: GatewayMetrics,
    /** The operator lets native upstreams store responses (`GATEWAY_RESPONSES_UPSTREAM_STORE`); otherwise `store` goes up false. */
    private readonly upstreamStore = false,
  ) {}

  async create(ctx: RequestContext, raw: unknown): Promise<ResponsesAnswer<Record<string, unknown>>> {
    const prepared = await this.prepare(ctx, raw);
    const { req, headers } = prepared;
    const id = responseId(ctx.requestId);
    const createdAt = Math.floor(Date.now() / 1000);
    if (!prepared.native.length) {
      const completion = await this.chat.complete(ctx, toChatRequest({ ...req, stream: false }), RESPONSES_ENTRY);
      return { body: toResponse(req, completion, id, createdAt), headers };
    }
    const body = await tryRoutes(ctx, this.metrics, prepared.native, async (attempt) => {
      const result = await openaiResponsesAdapter.create(this.call(ctx, attempt, prepared.forward, false));
      const response = present(result.response, id, req);
      const measured = result.usage ? measuredFromProvider(result.usage) : estimateResponsesUsage(req, outputTextOf(response), attempt.candidate.route.provider.type);
      const usage = withServiceTier(measured, response.service_tier ?? prepared.tier);
      await ctx.ticket.settle(settlementOf(attempt, { statusCode: 200, usage, charge: true, ttftMs: null, wasStreaming: false, errorCode: null }));
      return response;
    }, { abandonedUsage: ({ candidate }) => withServiceTier(estimateResponsesUsage(req, '', candidate.route.provider.type), prepared.tier), spend: () => spendEstimateOf('responses', prepared.forward) });
    return { body, headers };
  }

  /**
   * A streamed response. Resolves once the upstream accepted the call, so
   * that a failure before any byte reached the client can still move to the
   * next route; after that, the stream is committed.
   */
  async stream(ctx: RequestContext, raw: unknown): Promise<ResponsesAnswer<AsyncGenerator<ResponseEvent>>> {
    const prepared = await this.prepare(ctx, raw);
    const { req, headers } = prepared;
    const id = responseId(ctx.requestId);
    const createdAt = Math.floor(Date.now() / 1000);
    if (!prepared.native.length) {
      const chunks = await this.chat.stream(ctx, toChatRequest({ ...req, stream: true }), RESPONSES_ENTRY);
      return { body: toResponseEvents(req, chunks, id, createdAt), headers };
    }
    const body = await tryRoutes(ctx, this.metrics, prepared.native, async (attempt) => {
      const upstream = openaiResponsesAdapter.stream(this.call(ctx, attempt, prepared.forward, true));
      const first = await upstream.next();
      return this.relay(ctx, prepared, attempt, upstream, first, id);
    }, { wasStreaming: true, spend: () => spendEstimateOf('responses', prepared.forward) });
    return { body, headers };
  }

  /** Validates, picks native or bridge, checks what the route can serve, and dereferences files: all before any upstream call. */
  private async prepare(ctx: RequestContext, raw: unknown): Promise<Prepared> {
    ctx.ticket.noteRequestedModel(raw && typeof raw === 'object' ? (raw as { model?: unknown }).model : undefined);
    const parsed = parseRequest(responsesRequestSchema, raw);
    const candidates = this.catalog.resolve(parsed.model, ctx.principal, 'responses', RESPONSES_ENDPOINT);
    const native = endpointMode(candidates[0]!.model, 'responses') === 'native';
    const headers: Record<string, string> = {};
    const tier = native ? paidServiceTier((parsed as Record<string, unknown>).service_tier) : undefined;
    const nativeCandidates = native ? candidates.filter((c) => endpointMode(c.model, 'responses') === 'native' && this.servesTier(c, tier)) : [];
    if (native) checkNativeServable(parsed, () => nativeCandidates.length > 0);
    else {
      checkBridgeable(parsed, candidates[0]!.model.id);
      if (parsed.store === undefined || parsed.store === null) headers['X-Svc-Warning'] = 'stateless_bridge';
    }
    const { request: req, dereferenced } = await dereferenceFiles(parsed, ctx.principal, this.files);
    if (dereferenced) headers['X-Svc-File-Dereference'] = '1';
    const forward = native
      ? nativeRequestBody(raw as Record<string, unknown>, req.input, { scoped: (value) => endUserIdentity(ctx.principal, value), upstreamStore: this.upstreamStore })
      : {};
    return { req, forward, native: nativeCandidates, tier, headers };
  }

  /** Whether a route may serve the paid tier asked for: only where the catalog prices it, so that it is billed. */
  private servesTier({ model, route }: Candidate, tier: string | undefined): boolean {
    return !tier || this.catalog.currentPricing().prices.priceOf(model.id, route.lane, serviceTierDimension(tier)) !== null;
  }

  private call(ctx: RequestContext, { candidate, span }: RouteAttempt, body: Record<string, unknown>, stream: boolean): ResponsesCall {
    return { provider: candidate.route.provider, upstreamModel: candidate.route.upstreamModel, body: { ...body, stream }, signal: ctx.signal, span };
  }

  /** Passes the upstream's events through in order (its ids and model made the gateway's) and settles the usage record at the end. */
  private relay(
    ctx: RequestContext,
    { req, tier }: Prepared,
    attempt: RouteAttempt,
    upstream: AsyncGenerator<ResponsesStreamEvent>,
    first: IteratorResult<ResponsesStreamEvent>,
    id: string,
  ): AsyncGenerator<ResponseEvent> {
    let providerUsage: ProviderUsage | null = null;
    let outputText = '';
    // The tier the upstream last said it serves (its final response says which one did).
    let servedTier: unknown = tier;
    return relayStream(ctx, this.metrics, attempt, upstream, first, {
      forward: (event) => {
        if (event.type === 'usage') {
          providerUsage = event.usage;
          return undefined;
        }
        const data = event.data;
        if (data.response && typeof data.response === 'object') {
          const response = present(data.response as Record<string, unknown>, id, req);
          servedTier = response.service_tier ?? servedTier;
        }
        if (typeof data.delta === 'string') outputText += data.delta;
        return data as ResponseEvent;
      },
      hasOutput: () => outputText !== '',
      usage: () => withServiceTier(providerUsage ? measuredFromProvider(providerUsage) : estimateResponsesUsage(req, outputText, attempt.candidate.route.provider.type), servedTier),
    });
  }
}

/**
 * The gateway's id, the requested model name and the client's own end-user
 * identities on an upstream's response: which upstream served it, and the
 * per-key values it was given, stay internal.
 */
function present(response: Record<string, unknown>, id: string, req: ResponsesRequest): Record<string, unknown> {
  response.id = id;
  response.model = req.model;
  for (const field of END_USER_FIELDS) if (field in response) response[field] = (req as Record<string, unknown>)[field] ?? null;
  return response;
}

/** The text a response produced, for a local estimate when the upstream gave no usage. */
function outputTextOf(response: Record<string, unknown>): string {
  const output = Array.isArray(response.output) ? (response.output as Record<string, unknown>[]) : [];
  return output
    .flatMap((item) => (Array.isArray(item.content) ? (item.content as { text?: string }[]).map((c) => c.text ?? '') : [String(item.arguments ?? '')]))
    .join('');
}
