import type { MeasuredUsage } from '../billing/usage-record';

/** The model-call endpoints rate limits watch, by what their request body holds. */
export type LimitedEndpoint = 'chat' | 'responses' | 'embeddings' | 'videos' | 'search' | 'decisions' | 'messages' | 'mcp' | GeminiLimitedEndpoint;

/** Gemini's methods, by their bodies: `generateContent` (and its stream), the two embedding methods, and `countTokens` (free: requests only; Messages' `count_tokens` too). */
export type GeminiLimitedEndpoint = 'generate_content' | 'embed_content' | 'count_tokens';

/** Output tokens assumed for a chat or Responses request that sets no maximum. */
export const DEFAULT_OUTPUT_ESTIMATE = 256;

/** About four characters of English (and of JSON) per token: good enough for a per-minute budget, and free. */
const CHARS_PER_TOKEN = 4;

/**
 * Tokens a request is charged against the tokens-per-minute limits when it is
 * admitted, before anyone knows its real cost: its prompt (the characters of
 * `messages` / `input` / `instructions`, over four) plus the most it may
 * produce (`max_completion_tokens`, `max_tokens` or `max_output_tokens`, else
 * 256; a decision's prompt is its state and questions; Gemini's `contents`,
 * `systemInstruction` and `tools`, capped by `generationConfig.maxOutputTokens`;
 * an Anthropic Messages request's `system` and `messages`, capped by `max_tokens`).
 * Embeddings produce nothing; video submissions, searches, MCP tool calls and token counts count requests only (0).
 * The estimate is corrected once the usage record is settled (see tokenCorrection).
 */
export function estimateTokens(endpoint: LimitedEndpoint, body: unknown): number {
  if (endpoint === 'videos' || endpoint === 'search' || endpoint === 'mcp' || endpoint === 'count_tokens' || typeof body !== 'object' || body === null) return 0;
  const b = body as Record<string, unknown>;
  if (endpoint === 'generate_content' || endpoint === 'embed_content') return estimateGeminiTokens(endpoint, b);
  const prompt = endpoint === 'chat' ? [b.messages]
    : endpoint === 'messages' ? [b.system, b.messages]
      : endpoint === 'decisions' ? [b.state, b.questions] : [b.input, endpoint === 'responses' ? b.instructions : undefined];
  const promptTokens = Math.ceil(prompt.reduce<number>((n, part) => n + jsonLength(part), 0) / CHARS_PER_TOKEN);
  if (endpoint === 'embeddings') return promptTokens;
  const cap = endpoint === 'chat' ? (positiveInt(b.max_completion_tokens) ?? positiveInt(b.max_tokens))
    : endpoint === 'messages' ? positiveInt(b.max_tokens) : positiveInt(b.max_output_tokens);
  return promptTokens + (cap ?? DEFAULT_OUTPUT_ESTIMATE);
}

function estimateGeminiTokens(endpoint: 'generate_content' | 'embed_content', b: Record<string, unknown>): number {
  const prompt = endpoint === 'embed_content' ? [b.content, b.requests] : [b.contents, b.systemInstruction, b.tools];
  const promptTokens = Math.ceil(prompt.reduce<number>((n, part) => n + jsonLength(part), 0) / CHARS_PER_TOKEN);
  if (endpoint === 'embed_content') return promptTokens;
  const config = b.generationConfig as Record<string, unknown> | undefined;
  return promptTokens + (positiveInt(config?.maxOutputTokens) ?? DEFAULT_OUTPUT_ESTIMATE);
}

/** Tokens a settled request really used, as its usage record says (0 when it failed before any usage). */
export function settledTokens(usage: MeasuredUsage | null): number {
  return usage ? usage.promptTokens + usage.completionTokens : 0;
}

/**
 * What to do to a tokens-per-minute counter once the real cost is known:
 * positive, consume that many more (the estimate was low); negative, give
 * that many back (the estimate was high, or the request failed); 0, nothing.
 */
export function tokenCorrection(estimated: number, actual: number): number {
  return Math.max(0, Math.round(actual)) - Math.max(0, Math.round(estimated));
}

function jsonLength(value: unknown): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'string') return value.length;
  try {
    return JSON.stringify(value).length;
  } catch {
    return 0;
  }
}

function positiveInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}
