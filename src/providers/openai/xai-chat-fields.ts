import type { ResolvedProvider } from '../resolved-provider';

/**
 * xAI's Chat Completions take the prompt-cache routing key as the
 * `x-grok-conv-id` header, not as OpenAI's `prompt_cache_key` field (which
 * only its Responses API reads), and offer no choice of cache retention;
 * so the key moves to the header and both fields leave the body.
 * @see https://docs.x.ai/developers/advanced-api-usage/prompt-caching/maximizing-cache-hits
 */
export function toXaiChatCall(provider: ResolvedProvider, body: Record<string, unknown>): { provider: ResolvedProvider; body: Record<string, unknown> } {
  const { prompt_cache_key: key, prompt_cache_retention: _retention, ...rest } = body;
  if (typeof key !== 'string' || key === '') return { provider, body: rest };
  return { provider: { ...provider, headers: { ...provider.headers, 'x-grok-conv-id': key } }, body: rest };
}
