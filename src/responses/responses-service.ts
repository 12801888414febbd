import { measuredFromProvider } from '../billing/measured-usage';
import { paidServiceTier, serviceTierDimension, withServiceTier } from '../billing/service-tier';
import type { Candidate, Catalog } from '../catalog/catalog';
import { endpointMode } from '../catalog/catalog-entry';
import type { ChatService } from '../chat/chat-service';
import { parseRequest } from '../errors/parse-request';
import { endUserIdentity } from '../keys/end-user-identity';
import type { RequestContext } from '../model-call/request-context';
import { pricedRoutes, spendEstimateOf } from '../model-call/call-spend-estimate';
import { settlementOf, tryRoutes, type RouteAttempt } from '../model-call/route-attempts';
import { relayStream } from '../model-call/stream-relay';
import type { Routing } from '../model-call/routing';
import { openaiResponsesAdapter, type ResponsesCall, type ResponsesStreamEvent } from '../providers/openai/openai-responses';
import { StreamedStrings } from '../providers/streamed-json-body';
import type { ProviderUsage } from '../providers/usage';
import { checkBridgeable } from './bridge/bridge-limits';
import { toResponse } from './bridge/chat-to-response';
import { toResponseEvents, type ResponseEvent } from './bridge/response-events';
import { toChatRequest } from './bridge/responses-to-chat';
import type { FileBytesBudget } from './file-bytes-budget';
import { findNamedFiles, inlineRead, inlineStreamed, type OwnedFiles } from './file-dereference';
import { checkNativeServable, END_USER_FIELDS, nativeRequestBody } from './native-request-fields';
import { responseId } from './response-object';
import { responsesRequestSchema, type ResponsesRequest } from './responses-request-schema';
import { estimateResponsesUsage } from './responses-usage';
import { inputAsItems } from './stored-input-items';
import type { Continuation, StoredResponses } from './stored-responses';

export const RESPONSES_ENDPOINT = '/v1/responses';
const RESPONSES_ENTRY = { type: 'responses' as const, path: RESPONSES_ENDPOINT };

/** The stream events whose response object is the final one, kept when the response is stored. */
const FINAL_EVENTS = new Set(['response.completed', 'response.incomplete']);

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
  /** The files `forward` holds placeholders for, streamed into each attempt's upstream body. */
  streamed?: StreamedStrings;
  /** Gives back the call's share of the file byte budget: once its upstream call is over. */
  releaseFileBytes: () => void;
  /** Whether the gateway keeps the response (a native route, `store` not false); `input` is the client's own, as sent. */
  keep: { input: ResponsesRequest['input'] } | undefined;
  /**
   * A continuation the previous response's upstream holds: on a route of
   * that provider channel, this body goes up instead of `forward` (the new
   * input only, and the upstream's own id as `previous_response_id`).
   */
  onUpstream?: { provider: string; body: Record<string, unknown> };
}

/** Who served a response: its provider channel, and the id the upstream gave it. */
interface ServedBy {
  provider: string;
  upstreamId: unknown;
}

/**
 * `POST /v1/responses`. A model whose catalog entry serves `/v1/responses`
 * natively gets the request forwarded to an upstream that speaks Responses
 * (its answer and its events passed through, ids and model name made the
 * gateway's); any other goes through the stateless bridge: the request
 * becomes a chat request, the chat service serves it (routing, reasoning
 * rules, fallback, usage record), and its answer becomes a response. Either
 * way, files named by id are dereferenced first (streamed into a native
 * route's body; read whole for the bridge), within the instance's file byte
 * budget and after the spend hold, and the usage record is written like
 * chat's.
 *
 * A native response is kept by the gateway unless the client sent `store:
 * false` (written once its answer is out; see response-store.ts), for
 * `GET /v1/responses/{id}` and its input items, and for
 * `previous_response_id`: the chain it names is replayed as the input's
 * first items (the upstream gets no id of the gateway's), or, where the
 * operator lets the upstream store responses and the route is the channel
 * that served the previous one, the upstream's own id is sent instead.
 */
export class ResponsesService {
  constructor(
    private readonly catalog: Catalog,
    private readonly chat: ChatService,
    private readonly files: OwnedFiles,
    private readonly routing: Routing,
    private readonly fileBytes: FileBytesBudget,
    private readonly stored: StoredResponses,
    /** The operator lets native upstreams store responses (`GATEWAY_RESPONSES_UPSTREAM_STORE`); otherwise `store` goes up false. */
    private readonly upstreamStore = false,
  ) {}

  async create(ctx: RequestContext, raw: unknown): Promise<ResponsesAnswer<Record<string, unknown>>> {
    const prepared = await this.prepare(ctx, raw);
    try {
      return await this.createPrepared(ctx, prepared);
    } finally {
      prepared.releaseFileBytes();
    }
  }

  private async createPrepared(ctx: RequestContext, prepared: Prepared): Promise<ResponsesAnswer<Record<string, unknown>>> {
    const { req, headers } = prepared;
    const id = responseId(ctx.requestId);
    const createdAt = Math.floor(Date.now() / 1000);
    if (!prepared.native.length) {
      const completion = await this.chat.complete(ctx, toChatRequest({ ...req, stream: false }), RESPONSES_ENTRY);
      return { body: toResponse(req, completion, id, createdAt), headers };
    }
    let served: ServedBy | undefined;
    const body = await tryRoutes(ctx, this.routing, prepared.native, async (attempt) => {
      const result = await openaiResponsesAdapter.create(this.call(ctx, attempt, prepared, false));
      served = { provider: attempt.candidate.route.provider.name, upstreamId: result.response.id };
      const response = present(result.response, id, req, prepared.keep !== undefined);
      const measured = result.usage ? measuredFromProvider(result.usage) : estimateResponsesUsage(req, outputTextOf(response), attempt.candidate.route.provider.type, prepared.streamed);
      const usage = withServiceTier(measured, response.service_tier ?? prepared.tier);
      await ctx.ticket.settle(settlementOf(attempt, { statusCode: 200, usage, charge: true, ttftMs: null, wasStreaming: false, errorCode: null }));
      return response;
    }, { abandonedUsage: ({ candidate }) => withServiceTier(estimateResponsesUsage(req, '', candidate.route.provider.type, prepared.streamed), prepared.tier) });
    this.keep(ctx, prepared, body, served!);
    return { body, headers };
  }

  /**
   * A streamed response. Resolves once the upstream accepted the call, so
   * that a failure before any byte reached the client can still move to the
   * next route; after that, the stream is committed.
   */
  async stream(ctx: RequestContext, raw: unknown): Promise<ResponsesAnswer<AsyncGenerator<ResponseEvent>>> {
    const prepared = await this.prepare(ctx, raw);
    try {
      return await this.streamPrepared(ctx, prepared);
    } finally {
      // The upstream accepted the call: its body, files and all, was sent.
      prepared.releaseFileBytes();
    }
  }

  private async streamPrepared(ctx: RequestContext, prepared: Prepared): Promise<ResponsesAnswer<AsyncGenerator<ResponseEvent>>> {
    const { req, headers } = prepared;
    const id = responseId(ctx.requestId);
    const createdAt = Math.floor(Date.now() / 1000);
    if (!prepared.native.length) {
      const chunks = await this.chat.stream(ctx, toChatRequest({ ...req, stream: true }), RESPONSES_ENTRY);
      return { body: toResponseEvents(req, chunks, id, createdAt), headers };
    }
    const body = await tryRoutes(ctx, this.routing, prepared.native, async (attempt) => {
      const upstream = openaiResponsesAdapter.stream(this.call(ctx, attempt, prepared, true));
      const first = await upstream.next();
      return this.relay(ctx, prepared, attempt, upstream, first, id);
    }, { wasStreaming: true });
    return { body, headers };
  }

  /**
   * Validates, picks native or bridge, checks what the route can serve,
   * places the spend hold (before any file is read: a refused call reads
   * nothing), reserves the named files' bytes in the instance's budget, and
   * dereferences them: all before any upstream call.
   */
  private async prepare(ctx: RequestContext, raw: unknown): Promise<Prepared> {
    ctx.ticket.noteRequestedModel(raw && typeof raw === 'object' ? (raw as { model?: unknown }).model : undefined);
    const parsed = parseRequest(responsesRequestSchema, raw);
    const candidates = this.catalog.resolve(parsed.model, ctx.principal, 'responses', RESPONSES_ENDPOINT);
    const native = endpointMode(candidates[0]!.model, 'responses') === 'native';
    const headers: Record<string, string> = {};
    const tier = native ? paidServiceTier((parsed as Record<string, unknown>).service_tier) : undefined;
    const nativeRoutes = native ? candidates.filter((c) => endpointMode(c.model, 'responses') === 'native' && this.servesTier(c, tier)) : [];
    if (native) checkNativeServable(parsed, () => nativeRoutes.length > 0);
    else {
      checkBridgeable(parsed, candidates[0]!.model.id);
      if (parsed.store === undefined || parsed.store === null) headers['X-Svc-Warning'] = 'stateless_bridge';
    }
    const keep = native && parsed.store !== false ? { input: parsed.input } : undefined;
    const continuation = native && parsed.previous_response_id ? await this.stored.continuation(ctx.principal, parsed.previous_response_id) : undefined;
    // A continuation is served as one request holding the whole conversation: its files are checked, held for and sent like the new ones.
    const whole = continuation ? { ...parsed, input: [...continuation.replayed, ...inputAsItems(parsed.input)] } : parsed;
    const named = await findNamedFiles(whole, ctx.principal, this.files);
    if (ctx.principal.spendControlled) await ctx.spend.place(pricedRoutes(native ? nativeRoutes : candidates), spendEstimateOf('responses', continuation ? { ...(raw as object), input: whole.input } : raw));
    const releaseFileBytes = this.fileBytes.reserve(named.bytes);
    try {
      let req = whole;
      let streamed: StreamedStrings | undefined;
      if (named.byId.size) {
        headers['X-Svc-File-Dereference'] = '1';
        if (native) req = inlineStreamed(whole, named, this.files, (streamed = new StreamedStrings()));
        else req = await inlineRead(whole, named, this.files);
      }
      const forward = native
        ? nativeRequestBody(raw as Record<string, unknown>, req.input, { scoped: (value) => endUserIdentity(ctx.principal, value), upstreamStore: this.upstreamStore })
        : {};
      const onUpstream = continuation && this.onUpstream(continuation, forward, req.input);
      return { req, forward, native: nativeRoutes, tier, headers, streamed, releaseFileBytes, keep, onUpstream };
    } catch (err) {
      releaseFileBytes();
      throw err;
    }
  }

  /**
   * The body for a route of the channel whose upstream holds the previous
   * response: only when the operator lets upstreams store responses (so the
   * upstream kept it, under the id it gave).
   */
  private onUpstream(continuation: Continuation, forward: Record<string, unknown>, input: ResponsesRequest['input']): Prepared['onUpstream'] {
    const { upstream } = continuation;
    if (!this.upstreamStore || !upstream || typeof input === 'string') return undefined;
    return { provider: upstream.provider, body: { ...forward, input: input.slice(continuation.replayed.length), previous_response_id: upstream.id } };
  }

  /** Begins keeping a native response the client did not ask to leave unstored; the answer does not wait for the write. */
  private keep(ctx: RequestContext, { keep, req }: Prepared, response: Record<string, unknown>, served: ServedBy): void {
    if (!keep) return;
    this.stored.store.save({
      id: String(response.id), createdAt: new Date(), keyId: ctx.principal.keyId, accountId: ctx.principal.accountId,
      previousResponseId: req.previous_response_id || null, provider: served.provider,
      upstreamResponseId: this.upstreamStore && typeof served.upstreamId === 'string' ? served.upstreamId : null,
      input: keep.input, response,
    });
  }

  /** Whether a route may serve the paid tier asked for: only where the catalog prices it, so that it is billed. */
  private servesTier({ model, route }: Candidate, tier: string | undefined): boolean {
    return !tier || this.catalog.currentPricing().prices.priceOf(model.id, route.lane, serviceTierDimension(tier)) !== null;
  }

  private call(ctx: RequestContext, { candidate, span }: RouteAttempt, { forward, streamed, onUpstream }: Prepared, stream: boolean): ResponsesCall {
    const body = onUpstream?.provider === candidate.route.provider.name ? onUpstream.body : forward;
    return { provider: candidate.route.provider, upstreamModel: candidate.route.upstreamModel, body: { ...body, stream }, streamed, signal: ctx.signal, span };
  }

  /** Passes the upstream's events through in order (its ids and model made the gateway's) and settles the usage record at the end. */
  private relay(
    ctx: RequestContext,
    prepared: Prepared,
    attempt: RouteAttempt,
    upstream: AsyncGenerator<ResponsesStreamEvent>,
    first: IteratorResult<ResponsesStreamEvent>,
    id: string,
  ): AsyncGenerator<ResponseEvent> {
    const { req, tier, streamed } = prepared;
    const served: ServedBy = { provider: attempt.candidate.route.provider.name, upstreamId: undefined };
    let providerUsage: ProviderUsage | null = null;
    let outputText = '';
    // The tier the upstream last said it serves (its final response says which one did).
    let servedTier: unknown = tier;
    return relayStream(ctx, this.routing.metrics, attempt, upstream, first, {
      forward: (event) => {
        if (event.type === 'usage') {
          providerUsage = event.usage;
          return undefined;
        }
        const data = event.data;
        if (data.response && typeof data.response === 'object') {
          served.upstreamId ??= (data.response as Record<string, unknown>).id;
          const response = present(data.response as Record<string, unknown>, id, req, prepared.keep !== undefined);
          servedTier = response.service_tier ?? servedTier;
          if (FINAL_EVENTS.has(event.name)) this.keep(ctx, prepared, response, served);
        }
        if (typeof data.delta === 'string') outputText += data.delta;
        return data as ResponseEvent;
      },
      hasOutput: () => outputText !== '',
      usage: () => withServiceTier(providerUsage ? measuredFromProvider(providerUsage) : estimateResponsesUsage(req, outputText, attempt.candidate.route.provider.type, streamed), servedTier),
    });
  }
}

/**
 * The gateway's id, the requested model name and the client's own end-user
 * identities on an upstream's response: which upstream served it, and the
 * per-key values it was given, stay internal. `store` says whether the
 * gateway keeps it, and `previous_response_id` echoes the client's.
 */
function present(response: Record<string, unknown>, id: string, req: ResponsesRequest, kept: boolean): Record<string, unknown> {
  response.id = id;
  response.model = req.model;
  response.store = kept;
  response.previous_response_id = req.previous_response_id || null;
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
