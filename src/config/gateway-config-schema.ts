import { z } from 'zod';

/**
 * The gateway config file (YAML or JSON, path in GATEWAY_CONFIG): providers,
 * models with their routes and prices, and route aliases / policies.
 * Field names are snake_case, as in the wire API.
 */

/** A price in USD as a decimal string or number, per `per` units (default: per million tokens). */
const decimalUsd = z.union([
  z.string().regex(/^\d+(\.\d{1,12})?$/, 'must be a non-negative decimal such as "2.50"'),
  z.number().nonnegative().finite(),
]);

export const priceSchema = z.union([
  decimalUsd,
  z.strictObject({ usd: decimalUsd, per: z.number().int().positive().default(1_000_000) }),
]);

/** Prices by usage dimension name (`input`, `output`, `cache_read`, `cache_write_5m`, ...). */
export const pricingSchema = z.record(z.string().regex(/^[a-z][a-z0-9_]*$/, 'dimension names are snake_case'), priceSchema);

export const providerTypeSchema = z.enum(['openai', 'anthropic', 'gemini', 'xai', 'voyage']);

export const providerSchema = z.strictObject({
  type: providerTypeSchema,
  base_url: z.url({ protocol: /^https?$/ }).optional(),
  /** Name of the environment variable that holds the API key. */
  api_key_env: z.string().min(1).optional(),
  /** Served by the built-in simulator instead of a real upstream. */
  simulator: z.boolean().default(false),
  timeout_ms: z.number().int().positive().default(600_000),
  headers: z.record(z.string(), z.string()).default({}),
  /** A disabled provider channel serves no route; models left without a route disappear. */
  enabled: z.boolean().default(true),
});

export const endpointTypeSchema = z.enum(['chat', 'embeddings', 'responses', 'decisions', 'videos']);

/**
 * How a model reasons, and which reasoning controls it takes. The chat
 * service applies these rules (src/chat/reasoning/); nothing is inferred
 * from a model's name.
 */
export const reasoningCapabilitiesSchema = z.strictObject({
  /** `off`: reasons only when asked; `on`: reasons unless turned off; `always`: cannot be turned off. */
  default: z.enum(['off', 'on', 'always']),
  /** Whether `reasoning.effort` is accepted, and the share of `max_tokens` each level reserves (percent) when the upstream takes a budget. */
  effort: z.union([z.literal(false), z.literal('native'), z.strictObject({ low: z.number().int().min(1).max(99), medium: z.number().int().min(1).max(99), high: z.number().int().min(1).max(99) })]),
  /** With native effort: the levels the upstream takes (default low, medium, high; GPT-5 adds `minimal`). */
  native_efforts: z.array(z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh'])).min(1).optional(),
  /** Whether `reasoning.max_tokens` (a token budget) is accepted. */
  budget: z.boolean(),
  min_budget: z.number().int().nonnegative().default(1024),
  max_budget: z.number().int().positive().optional(),
  /** Whether `reasoning.max_tokens: 0` turns reasoning off (models whose default is `on`). */
  can_disable: z.boolean().default(false),
  /** Whether the `#thinking` model-name suffix turns reasoning on, and the share of `max_tokens` it reserves. */
  thinking_suffix: z.union([z.literal(false), z.number().int().min(1).max(99)]).default(false),
  /** `temperature` while reasoning: free, must be exactly 1, or refused (as are top_p and top_k). */
  temperature: z.enum(['free', 'must_be_1', 'unsupported']).default('free'),
  /** Whether the reasoning text is returned in `reasoning_content`. */
  returns_text: z.boolean(),
  /** An omitted `max_tokens` becomes the model's `max_output_tokens` (upstreams that require it), or is left to the upstream. */
  max_tokens_default: z.enum(['model_max', 'upstream']).default('upstream'),
  /**
   * The thinking control the upstream takes: a token `budget` (Anthropic `budget_tokens`, Gemini 2.5
   * `thinkingBudget`), or an `effort_level` (Claude 4.7 and later: adaptive thinking with
   * `output_config.effort`; Gemini 3: `thinkingLevel`), where a client's budget or `#thinking`
   * suffix becomes the level whose share of max_tokens is nearest. Only a model that refuses a
   * budget takes levels: one that accepts a budget follows the share rule. `adaptive_or_budget`,
   * which catalogs once gave Claude 4.6 (it accepts a budget), is read as `budget`.
   */
  control: z
    .enum(['budget', 'effort_level', 'adaptive_or_budget'])
    .default('budget')
    .transform((control) => (control === 'adaptive_or_budget' ? 'budget' : control)),
  /** The upstream's name for each effort level, where it differs (Gemini 3 Pro has no `medium`). */
  effort_levels: z.strictObject({ low: z.string().min(1), medium: z.string().min(1), high: z.string().min(1) }).optional(),
}).superRefine((caps, ctx) => {
  if (caps.control !== 'budget' && typeof caps.effort !== 'object') {
    ctx.addIssue({ code: 'custom', path: ['effort'], message: `control "${caps.control}" needs the share of each effort level (effort: {low, medium, high})` });
  }
});

/**
 * A video generation model: which wire shape its clients use, what it
 * accepts, and how its tasks are polled upstream.
 */
export const videoCapabilitiesSchema = z.strictObject({
  /** `xai`: submit returns `request_id`, poll returns pending or `video`; `openai`: OpenAI video objects, remix, content download. */
  api: z.enum(['xai', 'openai']),
  /** Accepted durations in seconds: a range (xai) or a list (openai). */
  durations: z.union([z.strictObject({ min: z.number().int().positive(), max: z.number().int().positive() }), z.array(z.number().int().positive()).min(1)]),
  default_duration: z.number().int().positive(),
  /** xai: resolution names; openai: pixel sizes (`WIDTHxHEIGHT`). The first is the default. */
  resolutions: z.array(z.string().min(1)).min(1),
  /** openai: the price class of each size (`720p`, `1080p`); xai: resolutions are their own class. */
  size_classes: z.record(z.string(), z.string()).default({}),
  aspect_ratios: z.array(z.string()).default([]),
  default_aspect_ratio: z.string().optional(),
  /**
   * Typical seconds from submission to the finished video on this model's
   * upstream: the poll schedule starts from it (see `videos/poll-schedule.ts`).
   * A route served by the built-in simulator uses the simulator's own time.
   */
  expected_generation_seconds: z.number().positive().max(24 * 3600).default(60),
  polling: z
    .strictObject({
      /** First upstream poll this long after submission; half the expected generation time when unset. */
      first_poll_after_ms: z.number().int().nonnegative().optional(),
      /** Shortest wait between two polls of a task, and the first step of the back-off; a tenth of the expected generation time (at least 100 ms) when unset. */
      interval_ms: z.number().int().positive().optional(),
      /** Longest wait between two polls: the most a finished video waits to be noticed. */
      max_interval_ms: z.number().int().positive().default(10_000),
      /** A task not finished by then is expired and refunded. */
      timeout_ms: z.number().int().positive().default(20 * 60_000),
    })
    .default({ max_interval_ms: 10_000, timeout_ms: 20 * 60_000 }),
});

export const modelRouteSchema = z.strictObject({
  provider: z.string().min(1),
  upstream_model: z.string().min(1),
  lane: z.string().min(1).default('standard'),
  /** Overrides the model's prices on this lane. */
  pricing: pricingSchema.optional(),
});

/**
 * A decision model: what its questions may be judged over, and the size of
 * the state it takes.
 */
export const decisionCapabilitiesSchema = z.strictObject({
  /** What a state may be: text, JSON, images. */
  inputs: z.array(z.enum(['text', 'json', 'image'])).min(1),
  /** Question kinds the model answers. */
  question_kinds: z.array(z.enum(['noul', 'choice', 'score'])).min(1).default(['noul', 'choice', 'score']),
  max_questions: z.number().int().positive().default(64),
  max_images: z.number().int().nonnegative().default(4),
  /** UTF-8 bytes of state an image-capable model takes beside its images. */
  max_state_bytes: z.number().int().positive().optional(),
  /** The upstream returns token log-probabilities (OpenAI's `logprobs`): the answers' probabilities are read from them. */
  logprobs: z.boolean().default(false),
});

export const endpointModeSchema = z.enum(['native', 'stateless_bridge']);

export const modelSchema = z.strictObject({
  id: z.string().min(1).regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]*$/, 'letters, digits and . _ : / - only'),
  /** A disabled model is gone from listings and answers 404 model_not_found; its history stays. */
  enabled: z.boolean().default(true),
  owned_by: z.string().min(1),
  /** Model family, which selects the reasoning rules: `openai`, `openai-reasoning`, `anthropic`, `gemini`, ... */
  family: z.string().min(1),
  endpoint_types: z.array(endpointTypeSchema).min(1),
  context_window: z.number().int().positive(),
  /** Prompt tokens the model takes; the context window when unset. */
  max_input_tokens: z.number().int().positive().optional(),
  max_output_tokens: z.number().int().positive().optional(),
  /**
   * How each endpoint is served, where the default is wrong: `native` when the upstream speaks the
   * path's protocol, `stateless_bridge` when the gateway translates it. By default an endpoint is
   * native when every route's provider speaks it (OpenAI-compatible providers), a bridge otherwise.
   */
  endpoint_modes: z.partialRecord(endpointTypeSchema, endpointModeSchema).optional(),
  decision: decisionCapabilitiesSchema.optional(),
  modalities: z
    .strictObject({
      input: z.array(z.enum(['text', 'image', 'audio', 'video', 'file'])).default(['text']),
      output: z.array(z.enum(['text', 'image', 'audio', 'video', 'embedding'])).default(['text']),
    })
    .default({ input: ['text'], output: ['text'] }),
  capabilities: z
    .strictObject({
      tools: z.boolean().default(false),
      tool_choice: z.boolean().default(false),
      json_output: z.boolean().default(false),
      vision: z.boolean().default(false),
      streaming: z.boolean().default(true),
      prompt_caching: z.boolean().default(false),
      /**
       * The upstream constrains its answer to a JSON schema itself
       * (Anthropic's structured outputs, `output_config.format`); without
       * it, a Claude model answers `response_format` through a forced tool
       * call. Only Anthropic routes read it.
       */
      structured_outputs: z.boolean().default(false),
    })
    .default({ tools: false, tool_choice: false, json_output: false, vision: false, streaming: true, prompt_caching: false, structured_outputs: false }),
  reasoning: reasoningCapabilitiesSchema.optional(),
  video: videoCapabilitiesSchema.optional(),
  embedding: z
    .strictObject({
      /** The vector length the model gives. */
      dimensions: z.number().int().positive(),
      max_inputs: z.number().int().positive().default(2048),
      /**
       * Shorter vectors the model gives for `dimensions`: `any` length up to
       * `dimensions` (OpenAI's text-embedding-3, Gemini's Matryoshka models), or
       * a list of lengths; without it only `dimensions` itself.
       */
      truncation: z.union([z.literal('any'), z.array(z.number().int().positive()).min(1)]).optional(),
    })
    .optional(),
  pricing: pricingSchema,
  /** Requests and tokens per minute for this model, across all keys and instances (unset: no limit). */
  rate_limits: z.strictObject({ rpm: z.number().int().positive().optional(), tpm: z.number().int().positive().optional() }).optional(),
  routes: z.array(modelRouteSchema).min(1),
});

/** The web search protocols the gateway speaks (one adapter each under providers/). */
export const searchBackendTypeSchema = z.enum(['tavily', 'serper', 'exa', 'searxng', 'brave']);

/**
 * A web search backend (`search.backends[]`). `type` is the protocol;
 * `search_price` is USD per unit the backend bills (Tavily: a basic search
 * is 1, an advanced one 2; the others 1 per successful query); without it
 * the `web_search` line item is recorded at zero.
 */
export const searchBackendSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'lowercase letters, digits, _ and - only'),
  name: z.string().min(1).max(100).optional(),
  type: searchBackendTypeSchema,
  base_url: z.url({ protocol: /^https?$/ }).optional(),
  /** Name of the environment variable that holds the API key (SearXNG usually needs none). */
  api_key_env: z.string().min(1).optional(),
  /** Served by the built-in simulator instead of a real backend. */
  simulator: z.boolean().default(false),
  /** The most results asked of this backend; a larger `max_results` is clipped to it. */
  max_results: z.number().int().min(1).max(100).default(10),
  timeout_ms: z.number().int().positive().default(8_000),
  search_price: z.string().regex(/^\d+(\.\d{1,12})?$/, 'must be a non-negative decimal string such as "0.008"').optional(),
  headers: z.record(z.string(), z.string()).default({}),
  enabled: z.boolean().default(true),
});

export const searchConfigSchema = z.strictObject({
  backends: z.array(searchBackendSchema).default([]),
});

const usdDecimal = z.string().regex(/^\d+(\.\d{1,12})?$/, 'must be a non-negative decimal string such as "0.002"');

/** An environment variable's name: secrets are named in the catalog, never written into it. */
const envVarName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable');

/**
 * How the gateway authenticates to an upstream MCP server: not at all, with
 * headers whose values it reads from environment variables, or with an
 * OAuth 2.0 client-credentials token it fetches, caches until it expires
 * and fetches again. The client's own `Authorization` never goes upstream.
 */
export const mcpServerAuthSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('none') }),
  z.strictObject({
    type: z.literal('headers'),
    /** Header name -> the environment variable that holds its value. */
    headers: z.record(z.string().regex(/^[A-Za-z0-9-]+$/, 'must be an HTTP header name'), envVarName),
  }),
  z.strictObject({
    type: z.literal('oauth_client_credentials'),
    token_url: z.url({ protocol: /^https?$/ }),
    client_id_env: envVarName,
    client_secret_env: envVarName,
    scope: z.string().min(1).max(1000).optional(),
  }),
]);

/**
 * An upstream MCP server (`mcp.servers[]`), whose tools keys reach through
 * `/mcp` as `<name>__<tool>`. The name has no underscores, so the first
 * `__` of a namespaced tool always ends it.
 */
export const mcpServerSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/, 'lowercase letters, digits and inner hyphens only, at most 32 characters'),
  url: z.url({ protocol: /^https?$/ }),
  /** `streamable_http` (MCP 2025-03-26 on; `url` is its endpoint), or `sse`, the older HTTP+SSE transport of 2024-11-05 (`url` is its event stream). */
  transport: z.enum(['streamable_http', 'sse']).default('streamable_http'),
  auth: mcpServerAuthSchema.default({ type: 'none' }),
  /** Allows a loopback or private address (a server on the gateway's own network); otherwise only public addresses are connected to. */
  private: z.boolean().default(false),
  /** Longest wait for one call's answer (and for each part of a streamed one). */
  timeout_ms: z.number().int().positive().max(600_000).default(30_000),
  enabled: z.boolean().default(true),
  /** USD per `tools/call` on this server; without it a call is recorded at zero. */
  price_per_call: usdDecimal.optional(),
  /** USD per call of a tool (its name on the server), instead of `price_per_call`. */
  tool_prices: z.record(z.string().min(1).max(128), usdDecimal).default({}),
});

export const mcpConfigSchema = z.strictObject({
  servers: z.array(mcpServerSchema).default([]),
});

/**
 * The decisions endpoint and its automatic question generation, both off
 * unless the operator turns them on (here or with GATEWAY_DECISIONS_ENABLED
 * and GATEWAY_DECISIONS_QUESTION_GENERATION, which win over the file).
 */
export const decisionsConfigSchema = z.strictObject({
  enabled: z.boolean().default(false),
  question_generation: z.boolean().default(false),
  /** The platform's generator model, when neither the request nor the key names one. */
  generator_model: z.string().min(1).optional(),
});

export const routePolicySchema = z.strictObject({
  name: z.string().min(1),
  /** Models tried in this order: the first is preferred, the rest are fallbacks. */
  models: z.array(z.string().min(1)).min(1),
});

export const gatewayConfigSchema = z
  .strictObject({
    providers: z.record(z.string().min(1), providerSchema),
    models: z.array(modelSchema).min(1),
    routes: z.array(routePolicySchema).default([]),
    search: searchConfigSchema.default({ backends: [] }),
    decisions: decisionsConfigSchema.default({ enabled: false, question_generation: false }),
    mcp: mcpConfigSchema.default({ servers: [] }),
  })
  .superRefine((config, ctx) => {
    const modelIds = new Set<string>();
    config.models.forEach((model, i) => {
      if (modelIds.has(model.id)) ctx.addIssue({ code: 'custom', path: ['models', i, 'id'], message: `duplicate model id "${model.id}"` });
      modelIds.add(model.id);
      model.routes.forEach((route, j) => {
        if (!config.providers[route.provider]) {
          ctx.addIssue({ code: 'custom', path: ['models', i, 'routes', j, 'provider'], message: `unknown provider "${route.provider}"` });
        }
      });
      if (model.endpoint_types.includes('videos') && !model.video) {
        ctx.addIssue({ code: 'custom', path: ['models', i, 'video'], message: 'video models need a video block' });
      }
      if (model.endpoint_types.includes('decisions') && !model.decision) {
        ctx.addIssue({ code: 'custom', path: ['models', i, 'decision'], message: 'decision models need a decision block' });
      }
      if (model.endpoint_types.includes('embeddings') && !model.embedding) {
        ctx.addIssue({ code: 'custom', path: ['models', i, 'embedding'], message: 'embedding models need embedding.dimensions' });
      }
    });
    const backendNames = new Map<string, number>();
    config.search.backends.forEach((backend, i) => {
      for (const [field, value] of [['id', backend.id], ['name', backend.name]] as const) {
        if (value === undefined) continue;
        const named = backendNames.get(value);
        if (named !== undefined && named !== i) ctx.addIssue({ code: 'custom', path: ['search', 'backends', i, field], message: `"${value}" already names another search backend` });
        backendNames.set(value, i);
      }
      if (!backend.simulator && !backend.base_url) ctx.addIssue({ code: 'custom', path: ['search', 'backends', i, 'base_url'], message: 'base_url is required unless simulator is true' });
    });
    const serverNames = new Set<string>();
    config.mcp.servers.forEach((server, i) => {
      if (serverNames.has(server.name)) ctx.addIssue({ code: 'custom', path: ['mcp', 'servers', i, 'name'], message: `"${server.name}" already names another MCP server` });
      serverNames.add(server.name);
    });
    config.routes.forEach((policy, i) => {
      if (modelIds.has(policy.name)) ctx.addIssue({ code: 'custom', path: ['routes', i, 'name'], message: `"${policy.name}" is already a model id` });
      policy.models.forEach((id, j) => {
        if (!modelIds.has(id)) ctx.addIssue({ code: 'custom', path: ['routes', i, 'models', j], message: `unknown model "${id}"` });
      });
    });
  });

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
export type GatewayConfigInput = z.input<typeof gatewayConfigSchema>;
export type ProviderConfig = z.infer<typeof providerSchema>;
export type ModelConfig = z.infer<typeof modelSchema>;
export type ModelRouteConfig = z.infer<typeof modelRouteSchema>;
export type PricingConfig = z.infer<typeof pricingSchema>;
export type PriceConfig = z.infer<typeof priceSchema>;
export type VideoCapabilities = z.infer<typeof videoCapabilitiesSchema>;
export type ReasoningCapabilities = z.infer<typeof reasoningCapabilitiesSchema>;
export type EndpointType = z.infer<typeof endpointTypeSchema>;
export type EndpointMode = z.infer<typeof endpointModeSchema>;
export type ProviderType = z.infer<typeof providerTypeSchema>;
export type SearchBackendConfig = z.infer<typeof searchBackendSchema>;
export type DecisionsConfig = z.infer<typeof decisionsConfigSchema>;
export type McpServerConfig = z.infer<typeof mcpServerSchema>;
