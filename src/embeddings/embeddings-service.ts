import type { Catalog } from '../catalog/catalog';
import { Errors } from '../errors/errors';
import { GatewayError } from '../errors/gateway-error';
import { parseRequest } from '../errors/parse-request';
import type { RequestContext } from '../model-call/request-context';
import { spendEstimateOf } from '../model-call/call-spend-estimate';
import { settlementOf, tryRoutes } from '../model-call/route-attempts';
import type { GatewayMetrics } from '../observability/metrics';
import { createOpenAIEmbeddings, type EmbeddingsResult } from '../providers/openai/openai-embeddings';
import { embeddingsRequestSchema } from './embeddings-request-schema';
import { embeddingsUsage } from './embeddings-usage';

export const EMBEDDINGS_ENDPOINT = '/v1/embeddings';

/** Embeddings: validation against the catalog, routing with fallback, one usage record. */
export class EmbeddingsService {
  constructor(
    private readonly catalog: Catalog,
    private readonly metrics: GatewayMetrics,
  ) {}

  async create(ctx: RequestContext, raw: unknown): Promise<EmbeddingsResult['body']> {
    ctx.ticket.noteRequestedModel(raw && typeof raw === 'object' ? (raw as { model?: unknown }).model : undefined);
    const req = parseRequest(embeddingsRequestSchema, raw);
    const candidates = this.catalog.resolve(req.model, ctx.principal, 'embeddings', EMBEDDINGS_ENDPOINT);
    const inputs = Array.isArray(req.input) && (typeof req.input[0] === 'string' || Array.isArray(req.input[0])) ? req.input.length : 1;
    return tryRoutes(ctx, this.metrics, candidates, async (attempt) => {
      const { model, route } = attempt.candidate;
      const spec = model.config.embedding!;
      if (inputs > spec.max_inputs) throw new GatewayError('invalid_parameter', `"input" has ${inputs} items; "${model.id}" takes at most ${spec.max_inputs} per request.`, { param: 'input' });
      if (req.dimensions && req.dimensions > spec.dimensions) {
        throw new GatewayError('invalid_parameter', `"dimensions" must be at most ${spec.dimensions} for "${model.id}".`, { param: 'dimensions' });
      }
      if (route.provider.type !== 'openai') throw Errors.providerNotSupported(route.provider.type, 'embeddings');
      const { body, usage, usageProblem } = await createOpenAIEmbeddings(route.provider, { ...req, model: route.upstreamModel }, ctx.signal);
      if (usageProblem) ctx.logger.warn('upstream embeddings usage refused; billing a local estimate', { provider: route.provider.name, reason: usageProblem, upstream_usage: JSON.stringify(body.usage).slice(0, 500) });
      const measured = embeddingsUsage(usage, req.input);
      await ctx.ticket.settle(settlementOf(attempt, { statusCode: 200, usage: measured, charge: true, ttftMs: null, wasStreaming: false, errorCode: null }));
      // The client reads the usage it is billed for, not the upstream's figures as sent.
      return { ...body, model: req.model, usage: { prompt_tokens: measured.promptTokens, total_tokens: measured.promptTokens } };
    }, { abandonedUsage: () => embeddingsUsage(null, req.input), spend: () => spendEstimateOf('embeddings', raw) });
  }
}
