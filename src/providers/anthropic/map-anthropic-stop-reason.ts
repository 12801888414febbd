/**
 * Anthropic's `stop_reason` as an OpenAI `finish_reason`. `pause_turn` (a
 * server tool paused a long turn) ends this answer like a normal stop; a
 * full context window is a length limit like `max_tokens`. Reasons newer
 * than this table also read as `stop`, the answer having ended normally.
 * @see https://docs.anthropic.com/en/api/handling-stop-reasons
 */
const FINISH_REASONS: { readonly [stopReason: string]: string } = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

/** With `answerTool`, a `tool_use` stop is the forced answer tool's: the answer is complete, not a call for the client to make. */
export function mapAnthropicStopReason(stopReason: string | null | undefined, answerTool = false): string {
  if (answerTool && stopReason === 'tool_use') return 'stop';
  return (stopReason && FINISH_REASONS[stopReason]) || 'stop';
}
