import { countPromptTokens, countTextTokens } from '../billing/local-token-count';
import { measuredFromProvider } from '../billing/measured-usage';
import type { MeasuredUsage } from '../billing/usage-record';
import type { Candidate, Catalog } from '../catalog/catalog';
import { dialectMode } from '../catalog/catalog-entry';
import type { ChatService } from '../chat/chat-service';
import type { EmbeddingsService } from '../embeddings/embeddings-service';
import { parseRequest } from '../errors/parse-request';
import { spendEstimateOf } from '../model-call/call-spend-estimate';
import type { RequestContext } from '../model-call/request-context';
import { settlementOf, tryRoutes, type RouteAttempt } from '../model-call/route-attempts';
import type { Routing } from '../model-call/routing';
import { relayStream } from '../model-call/stream-relay';
import { chatRequestSchema } from '../providers/chat-request';
import { countTokensNative, generateContentNative, streamGenerateContentNative, type GeminiNativeCall, type GeminiNativeStreamEvent } from '../providers/gemini/gemini-native';
import type { ProviderUsage } from '../providers/usage';
import { toGenerateContentResponse, toGenerateContentStream, type AnswerIdentity } from './chat-to-generate-content';
import { readEmbedRequest } from './embed-content-request';
import type { GeminiMethod } from './gemini-method-path';
import { inGeminiTerms } from './gemini-param-names';
import { checkFileUris, refuseUnservable } from './gemini-refusals';
import { countTokensRequestSchema, generateContentRequestSchema, type GenerateContentRequest } from './generate-content-request-schema';
import { toChatRequest, type ReasoningDefault } from './generate-content-to-chat';

interface Prepared {
  req: GenerateContentRequest;
  candidates: Candidate[];
  /** Every route speaks Gemini: the request goes up as sent (its known fields). */
  native: boolean;
  path: string;
  identity: AnswerIdentity;
}

/**
 * The Gemini API's dialect (`/v1beta/models/{model}:{method}`) over the
 * whole catalog. A model all of whose routes speak Gemini is served
 * natively: the request's known fields go to the route's upstream model
 * through `tryRoutes` (fallback, retries, spend hold), the answer or each
 * stream chunk comes back as the upstream sent it with the requested model
 * name and the gateway's request id, and the usage record is converted
 * from the same usage metadata as through chat completions. Any other model
 * goes through the chat core (generate-content-to-chat.ts and back), so
 * its family's reasoning rules, routing and usage record are chat's own.
 * Embeddings go through the embeddings service; `countTokens` is free and
 * writes one uncharged record.
 */
export class GenerateContentService {
  constructor(
    private readonly catalog: Catalog,
    private readonly chat: ChatService,
    private readonly embeddings: EmbeddingsService,
    private readonly routing: Routing,
  ) {}

  async generate(ctx: RequestContext, model: string, raw: unknown): Promise<Record<string, unknown>> {
    const prepared = this.prepare(ctx, model, 'generateContent', raw);
    const { req, identity } = prepared;
    if (!prepared.native) {
      const completion = await this.chat.complete(ctx, toChatRequest(req, model, { stream: false, reasoningDefault: reasoningDefault(prepared) }), { type: 'chat', path: prepared.path }).catch((err: unknown) => {
        throw inGeminiTerms(err);
      });
      return toGenerateContentResponse(completion, identity);
    }
    return tryRoutes(ctx, this.routing, prepared.candidates, async (attempt) => {
      const { response, usage } = await generateContentNative(this.nativeCall(ctx, attempt, forwarded(req)));
      const measured = usage ? measuredFromProvider(usage) : localUsage(req, outputTextOf(response), attempt);
      await ctx.ticket.settle(settlementOf(attempt, { statusCode: 200, usage: measured, charge: true, ttftMs: null, wasStreaming: false, errorCode: null }));
      return present(response, identity);
    }, { abandonedUsage: (attempt) => localUsage(req, '', attempt), spend: () => spendEstimateOf('generate_content', raw) });
  }

  /** Resolves once the upstream accepted the call, so that a failure before any byte reached the client can still move to the next route. */
  async stream(ctx: RequestContext, model: string, raw: unknown): Promise<AsyncGenerator<Record<string, unknown>>> {
    const prepared = this.prepare(ctx, model, 'streamGenerateContent', raw);
    const { req, identity } = prepared;
    if (!prepared.native) {
      const chunks = await this.chat.stream(ctx, toChatRequest(req, model, { stream: true, reasoningDefault: reasoningDefault(prepared) }), { type: 'chat', path: prepared.path }).catch((err: unknown) => {
        throw inGeminiTerms(err);
      });
      return toGenerateContentStream(chunks, identity);
    }
    return tryRoutes(ctx, this.routing, prepared.candidates, async (attempt) => {
      const upstream = streamGenerateContentNative(this.nativeCall(ctx, attempt, forwarded(req)));
      const first = await upstream.next();
      return this.relay(ctx, prepared, attempt, upstream, first);
    }, { wasStreaming: true, spend: () => spendEstimateOf('generate_content', raw) });
  }

  /**
   * `countTokens`, free: a native model asks its upstream (Google does not
   * charge for it), any other is counted by the gateway's tokenizer over
   * the request as the chat core would send it. One usage record, uncharged.
   */
  async countTokens(ctx: RequestContext, model: string, raw: unknown): Promise<Record<string, unknown>> {
    ctx.ticket.noteRequestedModel(model);
    refuseUnservable((raw && typeof raw === 'object' && (raw as { generateContentRequest?: unknown }).generateContentRequest) as Record<string, unknown> ?? {});
    const counted = parseRequest(countTokensRequestSchema, raw);
    const req: GenerateContentRequest = counted.generateContentRequest ?? { contents: counted.contents! };
    checkFileUris(req);
    const path = `/v1beta/models/${model}:countTokens`;
    const candidates = this.catalog.resolve(model, ctx.principal, 'chat', path);
    if (dialectMode(candidates, 'gemini') !== 'native') {
      const totalTokens = localPromptTokens(req);
      await ctx.ticket.settle({ statusCode: 200, usage: null, pricedAs: null, charge: false, ttftMs: null, wasStreaming: false, servedBy: null, errorCode: null });
      return { totalTokens };
    }
    return tryRoutes(ctx, this.routing, candidates, async (attempt) => {
      const body = counted.generateContentRequest ? { generateContentRequest: { ...forwarded(req), model: `models/${attempt.candidate.route.upstreamModel.replace(/^models\//, '')}` } } : { contents: req.contents };
      const answer = await countTokensNative(this.nativeCall(ctx, attempt, body));
      await ctx.ticket.settle(settlementOf(attempt, { statusCode: 200, usage: null, charge: false, ttftMs: null, wasStreaming: false, errorCode: null }));
      return answer;
    });
  }

  /** `embedContent` and `batchEmbedContents`, through the embeddings service for any embeddings model of the catalog. */
  async embed(ctx: RequestContext, model: string, method: 'embedContent' | 'batchEmbedContents', raw: unknown): Promise<Record<string, unknown>> {
    ctx.ticket.noteRequestedModel(model);
    const asked = readEmbedRequest(raw, method, model);
    const body = await this.embeddings.create(
      ctx,
      { model, input: asked.texts, encoding_format: 'float', ...(asked.dimensions !== undefined ? { dimensions: asked.dimensions } : {}) },
      { path: `/v1beta/models/${model}:${method}`, gemini: asked.gemini },
    );
    const vectors = (body.data as Array<{ embedding: number[] }>).map((item) => ({ values: item.embedding }));
    return method === 'embedContent' ? { embedding: vectors[0] } : { embeddings: vectors };
  }

  private prepare(ctx: RequestContext, model: string, method: GeminiMethod, raw: unknown): Prepared {
    ctx.ticket.noteRequestedModel(model);
    if (raw && typeof raw === 'object' && !Array.isArray(raw)) refuseUnservable(raw as Record<string, unknown>);
    const req = parseRequest(generateContentRequestSchema, raw);
    checkFileUris(req);
    const path = `/v1beta/models/${model}:${method}`;
    const candidates = this.catalog.resolve(model, ctx.principal, 'chat', path);
    const identity = { modelVersion: model, responseId: ctx.requestId, includeThoughts: req.generationConfig?.thinkingConfig?.includeThoughts === true };
    return { req, candidates, native: dialectMode(candidates, 'gemini') === 'native', path, identity };
  }

  private nativeCall(ctx: RequestContext, { candidate, span }: RouteAttempt, body: Record<string, unknown>): GeminiNativeCall {
    return { provider: candidate.route.provider, upstreamModel: candidate.route.upstreamModel, body, signal: ctx.signal, span };
  }

  /** Passes the upstream's chunks through in order, named as the gateway's, and settles the usage record at the end. */
  private relay(
    ctx: RequestContext,
    { req, identity }: Prepared,
    attempt: RouteAttempt,
    upstream: AsyncGenerator<GeminiNativeStreamEvent>,
    first: IteratorResult<GeminiNativeStreamEvent>,
  ): AsyncGenerator<Record<string, unknown>> {
    let usage: ProviderUsage | null = null;
    let usageIsPartial = false;
    let outputText = '';
    return relayStream(ctx, this.routing.metrics, attempt, upstream, first, {
      forward: (event) => {
        if (event.type === 'usage') {
          usage = event.usage;
          usageIsPartial = Boolean(event.partial);
          return undefined;
        }
        outputText += outputTextOf(event.chunk);
        return present(event.chunk, identity);
      },
      hasOutput: () => outputText !== '',
      usage: () => (usage && !usageIsPartial ? measuredFromProvider(usage) : localUsage(req, outputText, attempt)),
    });
  }
}

/** What goes upstream on a native route: the request's known fields (the schema refused any other), the path's model left to the URL. */
function forwarded(req: GenerateContentRequest): Record<string, unknown> {
  const { model: _model, ...fields } = req;
  return fields;
}

/** The requested model name and the gateway's request id on an upstream's answer: which upstream served it stays internal. */
function present(response: Record<string, unknown>, identity: AnswerIdentity): Record<string, unknown> {
  response.modelVersion = identity.modelVersion;
  response.responseId = identity.responseId;
  return response;
}

function reasoningDefault({ candidates }: Prepared): ReasoningDefault {
  return candidates[0]?.model.config.reasoning?.default;
}

/** Every text an answer or chunk holds (thoughts and call arguments too), for a local estimate and the time to first token. */
function outputTextOf(response: Record<string, unknown>): string {
  const candidates = Array.isArray(response.candidates) ? (response.candidates as Array<{ content?: { parts?: unknown } }>) : [];
  return candidates
    .flatMap((c) => (Array.isArray(c.content?.parts) ? (c.content.parts as Array<{ text?: unknown; functionCall?: unknown }>) : []))
    .map((part) => (typeof part.text === 'string' ? part.text : part.functionCall ? JSON.stringify(part.functionCall) : ''))
    .join('');
}

/**
 * The gateway's own count of a request's prompt: the tokenizer over the
 * request as the chat core would send it (the count chat uses when an
 * upstream reports none); a request the chat core could not carry is
 * counted over its text.
 */
function localPromptTokens(req: GenerateContentRequest): number {
  try {
    const chat = parseRequest(chatRequestSchema, toChatRequest(req, 'count', { stream: false, reasoningDefault: undefined }));
    return countPromptTokens(chat.messages, chat.tools);
  } catch {
    return countTextTokens(JSON.stringify([req.systemInstruction, req.contents, req.tools]));
  }
}

/** Usage the gateway counts itself, for a native answer that came without usage metadata (a stream cut short). */
function localUsage(req: GenerateContentRequest, outputText: string, attempt: RouteAttempt): MeasuredUsage {
  const measured = measuredFromProvider({
    inputTokens: localPromptTokens(req),
    outputTokens: countTextTokens(outputText),
    reasoningTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: { ttl5m: 0, ttl1h: 0 },
    reportsCache: false,
    family: attempt.candidate.route.provider.type,
    raw: {},
  });
  return { ...measured, measurement: { input: 'local_estimate', output: 'local_estimate' } };
}
