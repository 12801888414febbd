import type { Catalog } from '../catalog/catalog';
import { GatewayError } from '../http/errors';
import { toGatewayError } from '../http/map-upstream-error';
import type { RequestContext } from '../http/request-context';
import { parseRequest } from '../http/validate';
import type { GatewayMetrics } from '../observability/metrics';
import { createOpenAIEmbeddings, type EmbeddingsResult } from '../providers/openai/openai-embeddings';
import { UpstreamError } from '../providers/upstream-error';
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
    for (const [i, { model, route }] of candidates.entries()) {
      const spec = model.config.embedding!;
      if (inputs > spec.max_inputs) throw new GatewayError(400, 'invalid_parameter', `"input" has ${inputs} items; "${model.id}" takes at most ${spec.max_inputs} per request.`, { param: 'input' });
      if (req.dimensions && req.dimensions > spec.dimensions) {
        throw new GatewayError(400, 'invalid_parameter', `"dimensions" must be at most ${spec.dimensions} for "${model.id}".`, { param: 'dimensions' });
      }
      if (route.provider.type !== 'openai') throw new GatewayError(501, 'provider_not_supported', `Embeddings are not served over the ${route.provider.type} protocol yet.`);
      try {
        const { body, usage } = await createOpenAIEmbeddings(route.provider, { ...req, model: route.upstreamModel }, ctx.signal);
        await ctx.ticket.settle({
          statusCode: 200, usage: embeddingsUsage(usage, req.input),
          pricedAs: { modelId: model.id, lane: route.lane }, charge: true, ttftMs: null, wasStreaming: false,
          servedBy: { provider: route.provider.name, upstream_model: route.upstreamModel, lane: route.lane, attempts: i + 1 }, errorCode: null,
        });
        return { ...body, model: req.model };
      } catch (err) {
        if (err instanceof UpstreamError) this.metrics.upstreamErrors.inc({ provider: route.provider.name, status: String(err.details.status) });
        if (err instanceof UpstreamError && err.details.retryable && !ctx.signal.aborted && i < candidates.length - 1) continue;
        throw toGatewayError(err) ?? err;
      }
    }
    throw new Error('unreachable: the last candidate never falls back');
  }
}
