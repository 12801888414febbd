import type { GatewayConfigInput } from './gateway-config-schema';

type Modalities = NonNullable<GatewayConfigInput['models'][number]['modalities']>;

/**
 * The catalog served when no GATEWAY_CONFIG is given. Prices are list prices
 * in USD per million tokens; `reasoning` is priced as output because the
 * providers bill thinking tokens as output tokens.
 *
 * Each provider here is served by the built-in simulator unless its API key
 * variable is set (see load-config.ts).
 */
export const DEFAULT_PROVIDERS = {
  openai: { type: 'openai', base_url: 'https://api.openai.com/v1', api_key_env: 'OPENAI_API_KEY' },
  anthropic: { type: 'anthropic', base_url: 'https://api.anthropic.com/v1', api_key_env: 'ANTHROPIC_API_KEY' },
  gemini: { type: 'gemini', base_url: 'https://generativelanguage.googleapis.com/v1beta', api_key_env: 'GEMINI_API_KEY' },
  xai: { type: 'xai', base_url: 'https://api.x.ai/v1', api_key_env: 'XAI_API_KEY' },
  voyage: { type: 'voyage', base_url: 'https://api.voyageai.com/v1', api_key_env: 'VOYAGE_API_KEY' },
} as const satisfies GatewayConfigInput['providers'];

/**
 * The hosted web search backends, each served by the simulator unless its
 * key variable is set; prices are list prices in USD per billed unit (a
 * Tavily credit, a Serper or Exa query). SearXNG (`SEARXNG_BASE_URL`) and
 * Brave (`BRAVE_API_KEY`) join when the operator sets them up.
 */
export const DEFAULT_SEARCH_BACKENDS = [
  { id: 'tavily', name: 'Tavily', type: 'tavily', base_url: 'https://api.tavily.com', api_key_env: 'TAVILY_API_KEY', search_price: '0.008' },
  { id: 'serper', name: 'Serper', type: 'serper', base_url: 'https://google.serper.dev', api_key_env: 'SERPER_API_KEY', search_price: '0.001' },
  { id: 'exa', name: 'Exa', type: 'exa', base_url: 'https://api.exa.ai', api_key_env: 'EXA_API_KEY', search_price: '0.005' },
] as const satisfies NonNullable<GatewayConfigInput['search']>['backends'];

/** Self-hosted and own-key backends, in the default catalog only once their variable is set. */
export const OPERATOR_SEARCH_BACKENDS = {
  searxng: { id: 'searxng', name: 'SearXNG', type: 'searxng', base_url: 'http://localhost:8888', max_results: 20 },
  brave: { id: 'brave', name: 'Brave Search', type: 'brave', base_url: 'https://api.search.brave.com', api_key_env: 'BRAVE_API_KEY', search_price: '0.005' },
} as const satisfies Record<string, NonNullable<NonNullable<GatewayConfigInput['search']>['backends']>[number]>;

/** Text, images and documents (PDF) in; every default chat model reads all three. */
const chatVision: Modalities = { input: ['text', 'image', 'file'], output: ['text'] };
const fullChat = { tools: true, tool_choice: true, json_output: true, vision: true, streaming: true, prompt_caching: true };
/**
 * Every default Claude model has Anthropic's structured outputs (generally
 * available from Claude Sonnet 4.5, Haiku 4.5 and Opus 4.5 on), so
 * `response_format` goes upstream as `output_config.format`.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs
 */
const claudeChat = { ...fullChat, structured_outputs: true };

type Reasoning = NonNullable<GatewayConfigInput['models'][number]['reasoning']>;

/**
 * Claude up to 4.6: off unless asked; effort and `#thinking` reserve a share
 * of max_tokens as the thinking budget; temperature must be 1. 4.6 takes
 * adaptive thinking too, but it accepts a budget, so the spec's share rule
 * holds for it (medium: 2048 of 4096).
 */
const claudeReasoning: Reasoning = {
  default: 'off', effort: { low: 20, medium: 50, high: 80 }, budget: true, min_budget: 1024,
  thinking_suffix: 80, temperature: 'must_be_1', returns_text: true, max_tokens_default: 'model_max',
};
/** Claude 4.7 and later refuse a fixed budget (400 upstream): adaptive thinking at an effort level. */
const claudeAdaptiveOnlyReasoning: Reasoning = { ...claudeReasoning, control: 'effort_level' };
/** OpenAI o-series: always reasons, effort only, no sampling parameters, reasoning stays internal. */
const oSeriesReasoning: Reasoning = { default: 'always', effort: 'native', budget: false, temperature: 'unsupported', returns_text: false };
/** GPT-5: as the o-series, with a `minimal` effort too. */
const gpt5Reasoning: Reasoning = { ...oSeriesReasoning, native_efforts: ['minimal', 'low', 'medium', 'high'] };
/** Gemini 2.5: reasons by default with a dynamic budget; a budget of at least 1024; no effort. */
const geminiReasoning = (maxBudget: number, canDisable: boolean): Reasoning => ({
  default: 'on', effort: false, budget: true, min_budget: 1024, max_budget: maxBudget, can_disable: canDisable,
  temperature: 'free', returns_text: true,
});

/** Gemini 3: reasons by default at a thinking level; it cannot be turned off. Pro has no `medium` level. */
const gemini3Reasoning = (levels?: { low: string; medium: string; high: string }): Reasoning => ({
  default: 'on', effort: { low: 20, medium: 50, high: 80 }, control: 'effort_level', ...(levels ? { effort_levels: levels } : {}),
  budget: true, min_budget: 1024, can_disable: false, temperature: 'free', returns_text: true,
});

function route(provider: keyof typeof DEFAULT_PROVIDERS, upstream_model: string) {
  return [{ provider, upstream_model, lane: 'standard' }];
}

const noChat = { tools: false, tool_choice: false, json_output: false, vision: false, streaming: false, prompt_caching: false };

export const DEFAULT_MODELS: GatewayConfigInput['models'] = [
  {
    id: 'gpt-4.1-mini', owned_by: 'openai', family: 'openai', endpoint_types: ['chat', 'responses'],
    context_window: 1_047_576, max_output_tokens: 32_768, modalities: chatVision, capabilities: fullChat,
    pricing: { input: '0.40', cache_read: '0.10', output: '1.60' }, routes: route('openai', 'gpt-4.1-mini'),
  },
  {
    id: 'gpt-4.1', owned_by: 'openai', family: 'openai', endpoint_types: ['chat', 'responses'],
    context_window: 1_047_576, max_output_tokens: 32_768, modalities: chatVision, capabilities: fullChat,
    pricing: { input: '2.00', cache_read: '0.50', output: '8.00' }, routes: route('openai', 'gpt-4.1'),
  },
  {
    id: 'gpt-5', owned_by: 'openai', family: 'openai-reasoning', endpoint_types: ['chat', 'responses'],
    context_window: 400_000, max_output_tokens: 128_000, modalities: chatVision, capabilities: fullChat,
    reasoning: gpt5Reasoning,
    pricing: { input: '1.25', cache_read: '0.125', output: '10.00', reasoning: '10.00' }, routes: route('openai', 'gpt-5'),
  },
  {
    id: 'gpt-5-mini', owned_by: 'openai', family: 'openai-reasoning', endpoint_types: ['chat', 'responses'],
    context_window: 400_000, max_output_tokens: 128_000, modalities: chatVision, capabilities: fullChat,
    reasoning: gpt5Reasoning,
    pricing: { input: '0.25', cache_read: '0.025', output: '2.00', reasoning: '2.00' }, routes: route('openai', 'gpt-5-mini'),
  },
  {
    id: 'gpt-5-nano', owned_by: 'openai', family: 'openai-reasoning', endpoint_types: ['chat', 'responses'],
    context_window: 400_000, max_output_tokens: 128_000, modalities: chatVision, capabilities: fullChat,
    reasoning: gpt5Reasoning,
    pricing: { input: '0.05', cache_read: '0.005', output: '0.40', reasoning: '0.40' }, routes: route('openai', 'gpt-5-nano'),
  },
  {
    id: 'o3', owned_by: 'openai', family: 'openai-reasoning', endpoint_types: ['chat', 'responses'],
    context_window: 200_000, max_output_tokens: 100_000, modalities: chatVision, capabilities: fullChat,
    reasoning: oSeriesReasoning,
    pricing: { input: '2.00', cache_read: '0.50', output: '8.00', reasoning: '8.00' }, routes: route('openai', 'o3'),
  },
  {
    id: 'o4-mini', owned_by: 'openai', family: 'openai-reasoning', endpoint_types: ['chat', 'responses'],
    context_window: 200_000, max_output_tokens: 100_000, modalities: chatVision, capabilities: fullChat,
    reasoning: oSeriesReasoning,
    pricing: { input: '1.10', cache_read: '0.275', output: '4.40', reasoning: '4.40' }, routes: route('openai', 'o4-mini'),
  },
  {
    id: 'claude-sonnet-4-5', owned_by: 'anthropic', family: 'anthropic', endpoint_types: ['chat', 'responses'],
    context_window: 200_000, max_output_tokens: 64_000, modalities: chatVision, capabilities: claudeChat,
    reasoning: claudeReasoning,
    pricing: { input: '3.00', cache_write_5m: '3.75', cache_write_1h: '6.00', cache_read: '0.30', output: '15.00', reasoning: '15.00' },
    routes: route('anthropic', 'claude-sonnet-4-5'),
  },
  {
    id: 'claude-sonnet-4-6', owned_by: 'anthropic', family: 'anthropic', endpoint_types: ['chat', 'responses'],
    context_window: 200_000, max_output_tokens: 64_000, modalities: chatVision, capabilities: claudeChat,
    reasoning: claudeReasoning,
    pricing: { input: '3.00', cache_write_5m: '3.75', cache_write_1h: '6.00', cache_read: '0.30', output: '15.00', reasoning: '15.00' },
    routes: route('anthropic', 'claude-sonnet-4-6'),
  },
  {
    id: 'claude-opus-4-6', owned_by: 'anthropic', family: 'anthropic', endpoint_types: ['chat', 'responses'],
    context_window: 1_000_000, max_output_tokens: 128_000, modalities: chatVision, capabilities: claudeChat,
    reasoning: claudeReasoning,
    pricing: { input: '5.00', cache_write_5m: '6.25', cache_write_1h: '10.00', cache_read: '0.50', output: '25.00', reasoning: '25.00' },
    routes: route('anthropic', 'claude-opus-4-6'),
  },
  {
    id: 'claude-opus-4-7', owned_by: 'anthropic', family: 'anthropic', endpoint_types: ['chat', 'responses'],
    context_window: 1_000_000, max_output_tokens: 128_000, modalities: chatVision, capabilities: claudeChat,
    reasoning: claudeAdaptiveOnlyReasoning,
    pricing: { input: '5.00', cache_write_5m: '6.25', cache_write_1h: '10.00', cache_read: '0.50', output: '25.00', reasoning: '25.00' },
    routes: route('anthropic', 'claude-opus-4-7'),
  },
  {
    id: 'claude-haiku-4-5', owned_by: 'anthropic', family: 'anthropic', endpoint_types: ['chat', 'responses'],
    context_window: 200_000, max_output_tokens: 64_000, modalities: chatVision, capabilities: claudeChat,
    reasoning: claudeReasoning,
    pricing: { input: '1.00', cache_write_5m: '1.25', cache_write_1h: '2.00', cache_read: '0.10', output: '5.00', reasoning: '5.00' },
    routes: route('anthropic', 'claude-haiku-4-5'),
  },
  {
    id: 'gemini-2.5-flash', owned_by: 'google', family: 'gemini', endpoint_types: ['chat', 'responses'],
    context_window: 1_048_576, max_output_tokens: 65_536, modalities: chatVision, capabilities: fullChat,
    reasoning: geminiReasoning(24_576, true),
    pricing: { input: '0.30', cache_read: '0.03', output: '2.50', reasoning: '2.50' }, routes: route('gemini', 'gemini-2.5-flash'),
  },
  {
    id: 'gemini-2.5-pro', owned_by: 'google', family: 'gemini', endpoint_types: ['chat', 'responses'],
    context_window: 1_048_576, max_output_tokens: 65_536, modalities: chatVision, capabilities: fullChat,
    reasoning: geminiReasoning(32_768, false),
    pricing: { input: '1.25', cache_read: '0.125', output: '10.00', reasoning: '10.00' }, routes: route('gemini', 'gemini-2.5-pro'),
  },
  {
    id: 'gemini-3-pro-preview', owned_by: 'google', family: 'gemini', endpoint_types: ['chat', 'responses'],
    context_window: 1_048_576, max_output_tokens: 65_536, modalities: chatVision, capabilities: fullChat,
    reasoning: gemini3Reasoning({ low: 'low', medium: 'high', high: 'high' }),
    pricing: { input: '2.00', cache_read: '0.20', output: '12.00', reasoning: '12.00' }, routes: route('gemini', 'gemini-3-pro-preview'),
  },
  {
    id: 'gemini-3-flash-preview', owned_by: 'google', family: 'gemini', endpoint_types: ['chat', 'responses'],
    context_window: 1_048_576, max_output_tokens: 65_536, modalities: chatVision, capabilities: fullChat,
    reasoning: gemini3Reasoning(),
    pricing: { input: '0.50', cache_read: '0.05', output: '3.00', reasoning: '3.00' }, routes: route('gemini', 'gemini-3-flash-preview'),
  },
  {
    // xAI speaks OpenAI's chat and Responses protocols; this Grok answers without reasoning, so it takes no reasoning controls.
    id: 'grok-4-1-fast-non-reasoning', owned_by: 'xai', family: 'xai', endpoint_types: ['chat', 'responses'],
    context_window: 2_000_000, max_output_tokens: 30_000, modalities: { input: ['text', 'image'], output: ['text'] }, capabilities: fullChat,
    pricing: { input: '0.20', cache_read: '0.05', output: '0.50' }, routes: route('xai', 'grok-4-1-fast-non-reasoning'),
  },
  {
    id: 'text-embedding-3-small', owned_by: 'openai', family: 'openai-embedding', endpoint_types: ['embeddings'],
    context_window: 8_191, modalities: { input: ['text'], output: ['embedding'] },
    capabilities: noChat,
    embedding: { dimensions: 1536, max_inputs: 2048, truncation: 'any' }, pricing: { input: '0.02' }, routes: route('openai', 'text-embedding-3-small'),
  },
  {
    id: 'text-embedding-3-large', owned_by: 'openai', family: 'openai-embedding', endpoint_types: ['embeddings'],
    context_window: 8_191, modalities: { input: ['text'], output: ['embedding'] },
    capabilities: noChat,
    embedding: { dimensions: 3072, max_inputs: 2048, truncation: 'any' }, pricing: { input: '0.13' }, routes: route('openai', 'text-embedding-3-large'),
  },
  {
    id: 'gemini-embedding-001', owned_by: 'google', family: 'gemini-embedding', endpoint_types: ['embeddings'],
    context_window: 2_048, modalities: { input: ['text'], output: ['embedding'] },
    capabilities: noChat,
    embedding: { dimensions: 3072, max_inputs: 2048, truncation: 'any' }, pricing: { input: '0.15' }, routes: route('gemini', 'gemini-embedding-001'),
  },
  {
    id: 'text-embedding-004', owned_by: 'google', family: 'gemini-embedding', endpoint_types: ['embeddings'],
    context_window: 2_048, modalities: { input: ['text'], output: ['embedding'] },
    capabilities: noChat,
    embedding: { dimensions: 768, max_inputs: 2048, truncation: 'any' }, pricing: { input: '0' }, routes: route('gemini', 'text-embedding-004'),
  },
  {
    id: 'voyage-3.5', owned_by: 'voyageai', family: 'voyage-embedding', endpoint_types: ['embeddings'],
    context_window: 32_000, modalities: { input: ['text'], output: ['embedding'] },
    capabilities: noChat,
    embedding: { dimensions: 1024, max_inputs: 1000, truncation: [256, 512, 1024, 2048] }, pricing: { input: '0.06' }, routes: route('voyage', 'voyage-3.5'),
  },
  // Video models: prices are per second of video by resolution class; the hold
  // taken at submission is the requested seconds at that price.
  {
    id: 'gen-imagine-video', owned_by: 'xai', family: 'xai-video', endpoint_types: ['videos'],
    context_window: 4096, modalities: { input: ['text', 'image'], output: ['video'] }, capabilities: noChat,
    video: {
      api: 'xai', durations: { min: 1, max: 15 }, default_duration: 6, resolutions: ['480p', '720p'],
      aspect_ratios: ['16:9', '9:16', '1:1', '4:3', '3:4', '3:2', '2:3'], default_aspect_ratio: '16:9',
      expected_generation_seconds: 30,
    },
    pricing: { video_seconds_480p: { usd: '0.05', per: 1 }, video_seconds_720p: { usd: '0.10', per: 1 } },
    routes: route('xai', 'grok-imagine-video'),
  },
  {
    id: 'sora-2', owned_by: 'openai', family: 'openai-video', endpoint_types: ['videos'],
    context_window: 4096, modalities: { input: ['text', 'image'], output: ['video'] }, capabilities: noChat,
    video: {
      api: 'openai', durations: [4, 8, 12], default_duration: 4, resolutions: ['720x1280', '1280x720'], size_classes: { '720x1280': '720p', '1280x720': '720p' },
      expected_generation_seconds: 90,
    },
    pricing: { video_seconds_720p: { usd: '0.10', per: 1 } },
    routes: route('openai', 'sora-2'),
  },
  {
    id: 'sora-2-pro', owned_by: 'openai', family: 'openai-video', endpoint_types: ['videos'],
    context_window: 4096, modalities: { input: ['text', 'image'], output: ['video'] }, capabilities: noChat,
    video: {
      api: 'openai', durations: [4, 8, 12], default_duration: 4, resolutions: ['720x1280', '1280x720', '1024x1792', '1792x1024'],
      size_classes: { '720x1280': '720p', '1280x720': '720p', '1024x1792': '1080p', '1792x1024': '1080p' },
      expected_generation_seconds: 240,
    },
    pricing: { video_seconds_720p: { usd: '0.30', per: 1 }, video_seconds_1080p: { usd: '0.50', per: 1 } },
    routes: route('openai', 'sora-2-pro'),
  },
  // Decision models (served only while the operator has decisions on): structured output with token log-probabilities.
  {
    id: 'decision-gpt-4.1-mini', owned_by: 'openai', family: 'openai', endpoint_types: ['decisions'],
    context_window: 1_047_576, max_input_tokens: 1_000_000, max_output_tokens: 32_768,
    modalities: { input: ['text', 'image'], output: ['text'] }, capabilities: { ...fullChat, tools: false, tool_choice: false, streaming: false },
    decision: { inputs: ['text', 'json', 'image'], max_images: 4, max_state_bytes: 2000, logprobs: true },
    pricing: { input: '0.40', cache_read: '0.10', output: '1.60' }, routes: route('openai', 'gpt-4.1-mini'),
  },
  {
    id: 'decision-gpt-4.1-nano', owned_by: 'openai', family: 'openai', endpoint_types: ['decisions'],
    context_window: 1_047_576, max_input_tokens: 1_000_000, max_output_tokens: 32_768,
    modalities: { input: ['text'], output: ['text'] }, capabilities: { ...fullChat, tools: false, tool_choice: false, vision: false, streaming: false },
    decision: { inputs: ['text', 'json'], max_images: 0, logprobs: true },
    pricing: { input: '0.10', cache_read: '0.025', output: '0.40' }, routes: route('openai', 'gpt-4.1-nano'),
  },
];

export const DEFAULT_ROUTES: GatewayConfigInput['routes'] = [
  { name: 'fast', models: ['gpt-4.1-mini', 'claude-haiku-4-5', 'gemini-2.5-flash'] },
  { name: 'smart', models: ['claude-sonnet-4-5', 'gpt-4.1', 'gemini-2.5-pro'] },
];

