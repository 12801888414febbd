import { paidServiceTier, serviceTierDimension } from '../billing/service-tier';
import type { PricedRoute, SpendEstimate } from '../billing/spend-estimate';
import type { Candidate } from '../catalog/catalog';

/** The kind of request body, for where its output cap is. */
export type EstimatedBody = 'chat' | 'responses' | 'embeddings' | 'generate_content' | 'messages';

/**
 * Prompt tokens allowed for each image: more than any provider charges for
 * one (OpenAI's largest high-detail tiling is under 1,600; Anthropic's about
 * as much; Gemini's 258 per tile).
 */
export const IMAGE_TOKEN_ALLOWANCE = 6_000;

/**
 * Prompt tokens allowed for a request that carries tools, beyond the tools'
 * own JSON: an upstream may wrap them in a system prompt of its own, which
 * it bills as input (Anthropic's tool-use system prompt is up to 530 tokens,
 * https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/overview#pricing).
 */
export const TOOL_PROMPT_ALLOWANCE = 1_000;

const IMAGE_PART_TYPES = new Set(['image_url', 'input_image', 'image']);
/** Files of every dialect: OpenAI's `file` and `input_file`, Anthropic's `document` (a PDF's pages cost as images and text). */
const FILE_PART_TYPES = new Set(['file', 'input_file', 'document']);
/** Gemini's media parts (`inlineData`, `fileData`) are typed by their MIME type, not a `type` field. */
const GEMINI_MEDIA_PARTS = ['inlineData', 'fileData'] as const;

/**
 * The worst case of a request, for its hold. A token is never less than one
 * byte of the JSON that carries it, so the body's UTF-8 size bounds the
 * prompt (tools and instructions included); each image adds an allowance,
 * and a file (dereferenced by the gateway or the upstream) may fill the
 * model's whole prompt, which is where each route's own limit caps it, and
 * tools add the system prompt an upstream wraps them in. The output is the
 * request's cap, or the model's maximum when it sets none, for each of the
 * `n` completions a chat request asks for (Gemini: `inlineData` and
 * `fileData` parts, an image's MIME type or a file's, and
 * `generationConfig.maxOutputTokens`; Messages: `system` and `messages`,
 * `max_tokens`) (a reasoning budget is part of
 * that cap: the reasoning rules keep it below max_tokens). A paid service
 * tier adds its price on every one of those tokens.
 */
export function spendEstimateOf(kind: EstimatedBody, body: unknown): SpendEstimate {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const parts = { images: 0, files: 0 };
  const content = kind === 'chat' ? b.messages : kind === 'messages' ? [b.system, b.messages] : kind === 'generate_content' ? [b.contents, b.systemInstruction] : b.input;
  countParts(content, parts, 0);
  const tools = Array.isArray(b.tools) && b.tools.length > 0 ? TOOL_PROMPT_ALLOWANCE : 0;
  const promptTokens = parts.files > 0 ? Number.MAX_SAFE_INTEGER : jsonBytes(body) + parts.images * IMAGE_TOKEN_ALLOWANCE + tools;
  const outputCap = kind === 'embeddings' ? 0
    : kind === 'chat' ? (positiveInt(b.max_completion_tokens) ?? positiveInt(b.max_tokens))
      : kind === 'messages' ? positiveInt(b.max_tokens)
        : kind === 'generate_content' ? positiveInt((b.generationConfig as Record<string, unknown> | undefined)?.maxOutputTokens)
          : positiveInt(b.max_output_tokens);
  const choices = kind === 'chat' ? positiveInt(b.n) : undefined;
  // Neither Gemini's nor Messages' bodies name a paid tier (Messages' `auto` and `standard_only` are not; a native route refuses what the catalog does not price).
  const tier = kind === 'embeddings' || kind === 'generate_content' || kind === 'messages' ? undefined : paidServiceTier(b.service_tier);
  return { promptTokens, outputCap: outputCap ?? null, ...(choices && choices > 1 ? { choices } : {}), ...(tier ? { perTokenDimensions: [serviceTierDimension(tier)] } : {}) };
}

/** What the worst case is priced on, for each route a call may take. */
export function pricedRoutes(candidates: Candidate[]): PricedRoute[] {
  return candidates.map(({ model, route }) => ({
    modelId: model.id,
    lane: route.lane,
    maxInputTokens: model.config.max_input_tokens ?? model.config.context_window,
    maxOutputTokens: model.config.max_output_tokens ?? null,
    contextWindow: model.config.context_window,
  }));
}

/** Counts image and file parts in message content, however deep (bodies are at most 128 levels deep). */
function countParts(value: unknown, parts: { images: number; files: number }, depth: number): void {
  if (depth > 128 || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) countParts(item, parts, depth + 1);
    return;
  }
  const type = (value as { type?: unknown }).type;
  if (typeof type === 'string') {
    if (IMAGE_PART_TYPES.has(type)) parts.images++;
    else if (FILE_PART_TYPES.has(type)) parts.files++;
  }
  for (const field of GEMINI_MEDIA_PARTS) {
    const media = (value as Record<string, unknown>)[field] as { mimeType?: unknown } | undefined;
    if (media && typeof media === 'object') {
      if (typeof media.mimeType === 'string' && media.mimeType.startsWith('image/')) parts.images++;
      else parts.files++;
    }
  }
  for (const child of Object.values(value)) if (typeof child === 'object' && child !== null) countParts(child, parts, depth + 1);
}

function jsonBytes(value: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(value) ?? '');
  } catch {
    return 0;
  }
}

function positiveInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}
