import type { Catalog } from '../catalog/catalog';
import { GatewayError } from '../errors/gateway-error';
import { parseRequest } from '../errors/parse-request';
import { endUserIdentity } from '../keys/end-user-identity';
import type { RequestContext } from '../model-call/request-context';
import { spendEstimateOf } from '../model-call/call-spend-estimate';
import { settlementOf, tryRoutes } from '../model-call/route-attempts';
import type { Routing } from '../model-call/routing';
import type { GeminiEmbedHints } from '../providers/gemini/gemini-embeddings';
import type { EmbeddingsResult } from '../providers/openai/openai-embeddings';
import type { ModelConfig } from '../config/gateway-config-schema';
import { embeddingsRequestSchema, type EmbeddingsRequest } from './embeddings-request-schema';
import { countTextTokens } from '../billing/local-token-count';
import { embeddingsUsage } from './embeddings-usage';
import { embedOnRoute } from './upstream-embeddings';
import { describeDimensions, takesDimensions } from '../catalog/embedding-dimensions';

export const EMBEDDINGS_ENDPOINT = '/v1/embeddings';

/** How an embeddings call came: the path the model is resolved for (another dialect's door names its own), and Gemini's hints for Gemini routes. */
export interface EmbeddingsEntry {
  path: string;
  gemini?: GeminiEmbedHints;
}

/** Embeddings: validation against the catalog, routing with fallback, one usage record. */
export class EmbeddingsService {
  constructor(
    private readonly catalog: Catalog,
    private readonly routing: Routing,
  ) {}

  async create(ctx: RequestContext, raw: unknown, entry: EmbeddingsEntry = { path: EMBEDDINGS_ENDPOINT }): Promise<EmbeddingsResult['body']> {
    ctx.ticket.noteRequestedModel(raw && typeof raw === 'object' ? (raw as { model?: unknown }).model : undefined);
    const req = parseRequest(embeddingsRequestSchema, raw);
    if (req.user) req.user = endUserIdentity(ctx.principal, req.user);
    const candidates = this.catalog.resolve(req.model, ctx.principal, 'embeddings', entry.path);
    const inputs = Array.isArray(req.input) && (typeof req.input[0] === 'string' || Array.isArray(req.input[0])) ? req.input.length : 1;
    return tryRoutes(ctx, this.routing, candidates, async (attempt) => {
      const { model, route } = attempt.candidate;
      const spec = model.config.embedding!;
      if (inputs > spec.max_inputs) throw new GatewayError('invalid_parameter', `"input" has ${inputs} items; "${model.id}" takes at most ${spec.max_inputs} per request.`, { param: 'input' });
      if (req.dimensions) checkDimensions(model.id, spec, req.dimensions);
      checkInputLengths(model.id, model.config.max_input_tokens ?? model.config.context_window, req.input);
      const { body, usage, usageProblem } = await embedOnRoute(route, req, { signal: ctx.signal, span: attempt.span }, entry.gemini);
      if (usageProblem) ctx.logger.warn('upstream embeddings usage refused; billing a local estimate', { provider: route.provider.name, reason: usageProblem, upstream_usage: JSON.stringify(body.usage).slice(0, 500) });
      const measured = embeddingsUsage(usage, req.input);
      await ctx.ticket.settle(settlementOf(attempt, { statusCode: 200, usage: measured, charge: true, ttftMs: null, wasStreaming: false, errorCode: null }));
      // The client reads the usage it is billed for, not the upstream's figures as sent.
      return { ...body, model: req.model, usage: { prompt_tokens: measured.promptTokens, total_tokens: measured.promptTokens } };
    }, { abandonedUsage: () => embeddingsUsage(null, req.input), spend: () => spendEstimateOf('embeddings', raw) });
  }
}

/** `dimensions` must be a length the model gives: its own, or a shorter one it can truncate to. */
function checkDimensions(modelId: string, spec: NonNullable<ModelConfig['embedding']>, wanted: number): void {
  if (takesDimensions(spec, wanted)) return;
  throw new GatewayError('invalid_parameter', `"dimensions" must be ${describeDimensions(spec)} for "${modelId}".`, { param: 'dimensions' });
}

/**
 * Each input must fit the model's input limit: 413 naming the first that
 * does not, with what to do. A text is tokenized only when its UTF-8 size
 * is over the limit (a token is never less than a byte), so ordinary inputs
 * cost nothing here; the count is the gateway's (o200k), an estimate of the
 * upstream's own.
 */
function checkInputLengths(modelId: string, limit: number, input: EmbeddingsRequest['input']): void {
  const items: Array<string | number[]> = typeof input === 'string' ? [input] : typeof input[0] === 'number' ? [input as number[]] : (input as Array<string | number[]>);
  items.forEach((item, index) => {
    const tokens = typeof item === 'string' ? (Buffer.byteLength(item) <= limit ? 0 : countTextTokens(item)) : item.length;
    if (tokens <= limit) return;
    throw new GatewayError('request_body_too_large', `Input ${index} has about ${tokens} tokens; "${modelId}" takes at most ${limit} tokens per input. Split the text into smaller chunks and send them as separate inputs.`, {
      param: 'input', details: { input_index: index, tokens, max_input_tokens: limit },
    });
  });
}
