/**
 * The chat core's `finish_reason` as Anthropic's `stop_reason`. The chat
 * core does not say which stop sequence ended an answer (OpenAI and Gemini
 * do not tell either), so a stop is `end_turn`.
 * @see https://docs.anthropic.com/en/api/handling-stop-reasons
 */
const STOP_REASONS: { readonly [finishReason: string]: string } = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  content_filter: 'refusal',
};

export function stopReasonOf(finishReason: string | null | undefined): string {
  return (finishReason && STOP_REASONS[finishReason]) || 'end_turn';
}
