/**
 * Gemini's finish reasons as OpenAI's. A function call ends with `STOP` on
 * Gemini, so whether calls were made decides between `stop` and
 * `tool_calls`; the safety and policy stops are all `content_filter`.
 * @see https://ai.google.dev/api/generate-content#FinishReason
 */
export type ChatFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

const CONTENT_FILTER_REASONS = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY']);

export function mapGeminiFinishReason(reason: string | null | undefined, calledFunctions: boolean): ChatFinishReason {
  if (reason === 'MAX_TOKENS') return 'length';
  if (reason && CONTENT_FILTER_REASONS.has(reason)) return 'content_filter';
  return reason === 'STOP' && calledFunctions ? 'tool_calls' : 'stop';
}
