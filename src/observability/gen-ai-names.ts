/**
 * Names of the OpenTelemetry GenAI semantic conventions for the gateway's
 * endpoints and provider types.
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/
 */
const OPERATIONS: Record<string, string> = {
  '/v1/chat/completions': 'chat',
  '/v1/responses': 'chat',
  '/v1/embeddings': 'embeddings',
  '/v1/decisions': 'chat',
  '/v1/videos': 'generate_content',
  '/v1/videos/generations': 'generate_content',
  '/v1/search': 'execute_tool',
};

const PROVIDERS: Record<string, string> = {
  openai: 'openai',
  anthropic: 'anthropic',
  gemini: 'gcp.gemini',
  xai: 'x_ai',
  voyage: 'voyage_ai',
};

/** `gen_ai.operation.name` of a request on `endpoint` (the usage record's endpoint label). */
export function genAiOperation(endpoint: string): string {
  return OPERATIONS[endpoint] ?? (endpoint.startsWith('/v1/videos') ? 'generate_content' : 'chat');
}

/** `gen_ai.provider.name` of a provider type (its own name where the conventions have none). */
export function genAiProvider(type: string): string {
  return PROVIDERS[type] ?? type;
}
