import { hashString } from '../deterministic-random';
import { randomAlphanumericId } from '../ids';
import type { ChatAnswer } from './chat-answer';
import type { ChatLogprobs } from './chat-logprobs';
import type { ChatRequest } from './chat-request';
import type { ChatUsage } from './chat-usage';

/**
 * The whole `chat.completion` object, field for field and in the order of
 * the recorded api.openai.com response (test/fixtures/recorded/openai-chat/text.json).
 * @see https://platform.openai.com/docs/api-reference/chat
 */

/** What every chunk of one answer shares, and what the whole answer carries. */
export interface CompletionIdentity {
  id: string;
  created: number;
  model: string;
  service_tier: string;
  system_fingerprint: string;
}

/** Tiers the API echoes back; `auto` and anything unknown are served, and reported, as `default`. */
const ECHOED_SERVICE_TIERS = new Set(['default', 'flex', 'priority', 'scale']);

export function completionIdentity(request: ChatRequest): CompletionIdentity {
  return {
    id: randomAlphanumericId('chatcmpl-', 29),
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    service_tier: servedServiceTier(request.service_tier),
    // Stable per model, as a real deployment's fingerprint is between releases.
    system_fingerprint: `fp_${hashString(request.model).toString(16).padStart(10, '0')}`,
  };
}

/** The tier an answer reports for the one asked; the Responses API reports it the same way. */
export function servedServiceTier(requested: string | null | undefined): string {
  return requested && ECHOED_SERVICE_TIERS.has(requested) ? requested : 'default';
}

export function chatCompletionBody(identity: CompletionIdentity, answer: ChatAnswer, usage: ChatUsage, logprobs: ChatLogprobs | null = null): object {
  const { id, created, model, service_tier, system_fingerprint } = identity;
  return {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [{ index: 0, message: assistantMessage(answer), logprobs, finish_reason: answer.finishReason }],
    usage,
    service_tier,
    system_fingerprint,
  };
}

function assistantMessage(answer: ChatAnswer): object {
  if (answer.kind === 'text') return { role: 'assistant', content: answer.content, refusal: null, annotations: [] };
  const toolCalls = answer.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }));
  return { role: 'assistant', content: null, tool_calls: toolCalls, refusal: null, annotations: [] };
}
