import type { EndpointType } from '../config/gateway-config-schema';
import type { PriceTable } from '../billing/price-table';
import { unitMicroUsd } from '../billing/price';
import type { CatalogModel, RoutePolicy } from './catalog';

const ENDPOINT_PATHS: Record<EndpointType, string[]> = {
  chat: ['/v1/chat/completions'],
  embeddings: ['/v1/embeddings'],
  responses: ['/v1/responses'],
  decisions: ['/v1/decisions'],
  videos: ['/v1/videos'],
};

/** `GET /v1/models` record. */
export function modelRecord(model: CatalogModel, created: number) {
  return { id: model.id, object: 'model' as const, created, owned_by: model.config.owned_by };
}

export function policyRecord(policy: RoutePolicy, created: number) {
  return { id: policy.name, object: 'model' as const, created, owned_by: 'gateway-route' };
}

/**
 * A `GET /api/models/catalog` entry: what a client needs to pick a model and
 * call it correctly. Routing shows lanes and fallback depth, never which
 * provider serves a lane.
 */
export function catalogEntry(model: CatalogModel, prices: PriceTable, pricingVersion: number) {
  const c = model.config;
  const lanes = [...new Set(model.routes.map((r) => r.lane))];
  return {
    id: c.id,
    object: 'model' as const,
    owned_by: c.owned_by,
    family: c.family,
    supported_endpoint_types: c.endpoint_types,
    supported_endpoints: c.endpoint_types.flatMap((t) => ENDPOINT_PATHS[t].map((path) => ({ path, mode: 'native' }))),
    parameters: {
      tools: c.capabilities.tools,
      tool_choice: c.capabilities.tool_choice,
      response_format: c.capabilities.json_output,
      streaming: c.capabilities.streaming,
    },
    context_window: c.context_window,
    max_input_tokens: c.context_window,
    max_output_tokens: c.max_output_tokens ?? null,
    modalities: c.modalities,
    embedding: c.embedding ? { dimensions: c.embedding.dimensions, max_inputs: c.embedding.max_inputs } : null,
    decision_capabilities: null,
    max_state_bytes: null,
    cache: { prompt_caching: c.capabilities.prompt_caching },
    routing: { lanes, routes: model.routes.length },
    pricing: {
      currency: 'USD',
      version: pricingVersion,
      lanes: Object.fromEntries(lanes.map((lane) => [lane, lanePricing(prices, c.id, lane)])),
    },
  };
}

function lanePricing(prices: PriceTable, modelId: string, lane: string) {
  const out: Record<string, { usd: string; per: number; unit_microusd: number }> = {};
  for (const [dim, price] of prices.lanePrices(modelId, lane) ?? []) {
    out[dim] = { usd: price.usd, per: Number(price.per), unit_microusd: unitMicroUsd(price) };
  }
  return out;
}

export type CatalogEntry = ReturnType<typeof catalogEntry>;
