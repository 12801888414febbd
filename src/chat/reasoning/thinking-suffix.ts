/** `claude-sonnet-4-5#thinking`: a model name with the suffix that turns reasoning on. */
const THINKING_SUFFIX = '#thinking';

export function splitThinkingSuffix(model: string): { model: string; thinkingSuffix: boolean } {
  if (!model.endsWith(THINKING_SUFFIX)) return { model, thinkingSuffix: false };
  return { model: model.slice(0, -THINKING_SUFFIX.length), thinkingSuffix: true };
}
