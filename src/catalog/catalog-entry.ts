import type { EndpointMode, EndpointType, ProviderType } from '../config/gateway-config-schema';
import type { Pricing } from '../billing/pricing';
import { unitMicroUsd } from '../billing/price';
import type { CatalogModel, RoutePolicy } from './catalog';
import { allowedDimensions } from './embedding-dimensions';

const ENDPOINT_PATHS: Record<EndpointType, string[]> = {
  chat: ['/v1/chat/completions'],
  embeddings: ['/v1/embeddings'],
  responses: ['/v1/responses'],
  decisions: ['/v1/decisions'],
  videos: ['/v1/videos'],
};

/** The gateway's endpoints each upstream protocol speaks itself; anything else the gateway translates. */
const NATIVE_ENDPOINTS: Record<ProviderType, ReadonlySet<EndpointType>> = {
  openai: new Set(['chat', 'embeddings', 'responses', 'videos']),
  xai: new Set(['chat', 'responses', 'videos']),
  anthropic: new Set(),
  gemini: new Set(),
  voyage: new Set(),
};

/**
 * The other client dialects served on an endpoint type: their paths for a
 * model, and the upstream protocol that speaks each one itself. A model all
 * of whose routes speak it is served natively (the request goes up as the
 * client sent it); any other is translated (through the chat core for
 * Messages and generateContent, the embeddings service for Gemini's
 * embeddings), so every chat model is reachable from every dialect.
 */
const DIALECT_ENDPOINTS: Partial<Record<EndpointType, Array<{ paths: (modelId: string) => string[]; native: ProviderType }>>> = {
  chat: [
    { paths: () => ['/v1/messages', '/v1/messages/count_tokens'], native: 'anthropic' },
    { paths: (id) => ['generateContent', 'streamGenerateContent', 'countTokens'].map((method) => `/v1beta/models/${id}:${method}`), native: 'gemini' },
  ],
  embeddings: [{ paths: (id) => ['embedContent', 'batchEmbedContents'].map((method) => `/v1beta/models/${id}:${method}`), native: 'gemini' }],
};

/** Whether routes are served natively in a dialect whose upstream protocol is `native`: only when every one of them speaks it. */
export function dialectMode(routes: ReadonlyArray<{ route: { provider: { type: ProviderType } } }>, native: ProviderType): EndpointMode {
  return routes.length > 0 && routes.every(({ route }) => route.provider.type === native) ? 'native' : 'stateless_bridge';
}

const CACHE_DIMENSIONS = ['cache_read', 'cache_write_5m', 'cache_write_1h', 'cache_miss'];

/** `GET /v1/models` record. */
export function modelRecord(model: CatalogModel, created: number) {
  return { id: model.id, object: 'model' as const, created, owned_by: model.config.owned_by };
}

export function policyRecord(policy: RoutePolicy, created: number) {
  return { id: policy.name, object: 'model' as const, created, owned_by: 'gateway-route' };
}

/**
 * How the gateway serves an endpoint of a model: `native` when every route's
 * upstream speaks the path's protocol, `stateless_bridge` when the gateway
 * translates it (and so keeps no upstream state), unless the catalog says.
 */
export function endpointMode(model: CatalogModel, endpoint: EndpointType): EndpointMode {
  const configured = model.config.endpoint_modes?.[endpoint];
  if (configured) return configured;
  return model.routes.every((r) => NATIVE_ENDPOINTS[r.provider.type].has(endpoint)) ? 'native' : 'stateless_bridge';
}

/**
 * A `GET /api/models/catalog` entry: what a client needs to pick a model and
 * call it correctly. Routing shows lanes and fallback depth, never which
 * provider serves a lane.
 */
export function catalogEntry(model: CatalogModel, pricing: Pricing) {
  const c = model.config;
  const lanes = [...new Set(model.routes.map((r) => r.lane))];
  const prices = pricing.prices.lanePrices(c.id, lanes[0]!);
  return {
    id: c.id,
    object: 'model' as const,
    owned_by: c.owned_by,
    family: c.family,
    supported_endpoint_types: c.endpoint_types,
    supported_endpoints: c.endpoint_types.flatMap((t) => [
      ...ENDPOINT_PATHS[t].map((path) => ({ path, mode: endpointMode(model, t) })),
      ...(DIALECT_ENDPOINTS[t] ?? []).flatMap((dialect) => {
        const mode = dialectMode(model.routes.map((route) => ({ route })), dialect.native);
        return dialect.paths(c.id).map((path) => ({ path, mode }));
      }),
    ]),
    parameters: {
      tools: c.capabilities.tools,
      tool_choice: c.capabilities.tool_choice,
      response_format: c.capabilities.json_output,
      streaming: c.capabilities.streaming,
      vision: c.capabilities.vision,
      reasoning: c.reasoning
        ? {
            default: c.reasoning.default,
            effort: c.reasoning.effort !== false,
            efforts: c.reasoning.effort === false ? [] : c.reasoning.effort === 'native' ? (c.reasoning.native_efforts ?? ['low', 'medium', 'high']) : ['low', 'medium', 'high'],
            max_tokens: c.reasoning.budget,
            min_budget: c.reasoning.min_budget,
            max_budget: c.reasoning.max_budget ?? null,
            can_disable: c.reasoning.default === 'on' ? c.reasoning.can_disable : c.reasoning.default === 'off',
            thinking_suffix: c.reasoning.thinking_suffix !== false,
            control: c.reasoning.effort === 'native' ? 'effort_level' : c.reasoning.control,
            returns_text: c.reasoning.returns_text,
          }
        : null,
    },
    context_window: c.context_window,
    max_input_tokens: c.max_input_tokens ?? c.context_window,
    max_output_tokens: c.max_output_tokens ?? null,
    modalities: c.modalities,
    embedding: c.embedding ? { dimensions: c.embedding.dimensions, max_inputs: c.embedding.max_inputs, allowed_dimensions: allowedDimensions(c.embedding) } : null,
    decision_capabilities: c.decision
      ? { inputs: c.decision.inputs, question_kinds: c.decision.question_kinds, max_questions: c.decision.max_questions, max_images: c.decision.max_images }
      : null,
    max_state_bytes: c.decision?.max_state_bytes ?? null,
    cache: {
      prompt_caching: c.capabilities.prompt_caching,
      priced_dimensions: CACHE_DIMENSIONS.filter((dim) => prices?.has(dim)),
    },
    routing: { lanes, routes: model.routes.length },
    pricing: {
      currency: 'USD',
      version: pricing.version,
      lanes: Object.fromEntries(lanes.map((lane) => [lane, lanePricing(pricing, c.id, lane)])),
    },
  };
}

function lanePricing(pricing: Pricing, modelId: string, lane: string) {
  const out: Record<string, { usd: string; per: number; unit_microusd: number }> = {};
  for (const [dim, price] of pricing.prices.lanePrices(modelId, lane) ?? []) {
    out[dim] = { usd: price.usd, per: Number(price.per), unit_microusd: unitMicroUsd(price) };
  }
  return out;
}

export type CatalogEntry = ReturnType<typeof catalogEntry>;

