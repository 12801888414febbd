import { z } from 'zod';
import { isBase64DataUrl, isHttpsUrl } from './data-url';
import { MCP_TOOLS_NOT_RUN_HERE } from './mcp/mcp-tools-elsewhere';

/**
 * `POST /v1/chat/completions` request, in the OpenAI wire shape. Unknown
 * fields are dropped rather than forwarded, so that a field one provider
 * understands never reaches another that would reject the whole call.
 */

const CHAT_IMAGE_TYPES = /^image\/(png|jpe?g|gif|webp)$/;

const httpsOrDataUrl = z
  .string()
  .max(30 * 1024 * 1024)
  .refine((url) => isHttpsUrl(url) || isBase64DataUrl(url, (type) => CHAT_IMAGE_TYPES.test(type), { whitespace: true }), {
    message: 'must be an https:// URL or a data:image/(png|jpeg|gif|webp);base64 URL',
  });

/**
 * A prompt-caching breakpoint (Anthropic's `cache_control`) on a text,
 * image or file part or on a tool, where Anthropic takes one: forwarded to
 * upstreams that take it and removed for those that do not.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching#what-can-be-cached
 */
export const cacheControlSchema = z.object({ type: z.literal('ephemeral'), ttl: z.enum(['5m', '1h']).optional() });
export const textPartSchema = z.object({ type: z.literal('text'), text: z.string(), cache_control: cacheControlSchema.optional() });
export const imagePartSchema = z.object({
  type: z.literal('image_url'),
  image_url: z.object({ url: httpsOrDataUrl, detail: z.enum(['auto', 'low', 'high']).optional() }),
  cache_control: cacheControlSchema.optional(),
});
/**
 * A document given inline (OpenAI's `file` part): a base64 data URL and its
 * name. A `file_id` is not taken here: chat does not dereference uploaded
 * files; PDFs and large documents by id go through `/v1/responses`.
 */
export const filePartSchema = z.object({
  type: z.literal('file'),
  file: z
    .object({
      file_data: z
        .string()
        .refine((url) => isBase64DataUrl(url, () => true, { whitespace: true, empty: true }), 'must be a base64 data URL (data:<media type>;base64,...)')
        .optional(),
      filename: z.string().max(1024).optional(),
      file_id: z.string().optional(),
    })
    .superRefine((file, ctx) => {
      if (file.file_id) {
        ctx.addIssue({ code: 'custom', path: ['file_id'], message: 'is not dereferenced by chat completions; send the file to POST /v1/responses as an input_file with this file_id, or inline it here as file_data' });
      } else if (!file.file_data) {
        ctx.addIssue({ code: 'custom', path: ['file_data'], message: 'is required: the file as a base64 data URL' });
      }
    }),
  cache_control: cacheControlSchema.optional(),
});
const userPartSchema = z.discriminatedUnion('type', [textPartSchema, imagePartSchema, filePartSchema]);

const toolCallSchema = z.object({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.object({ name: z.string().min(1), arguments: z.string() }),
});

/**
 * Provider reasoning state the gateway returns on assistant messages, for the
 * client to send back unchanged on the next turn: Anthropic's signed thinking
 * blocks and Gemini's thought signatures. Upstreams reject a tool round trip
 * whose reasoning state was lost.
 */
export const reasoningDetailSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }),
  z.object({ type: z.literal('redacted_thinking'), data: z.string() }),
  z.object({ type: z.literal('thought_signature'), signature: z.string(), tool_call_id: z.string().optional() }),
]);

const textContent = z.union([z.string(), z.array(textPartSchema).min(1)]);

export const chatMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: textContent, name: z.string().optional() }),
  z.object({ role: z.literal('developer'), content: textContent, name: z.string().optional() }),
  z.object({ role: z.literal('user'), content: z.union([z.string(), z.array(userPartSchema).min(1)]), name: z.string().optional() }),
  z
    .object({
      role: z.literal('assistant'),
      content: z.union([textContent, z.null()]).optional(),
      tool_calls: z.array(toolCallSchema).nullish(),
      reasoning_content: z.string().nullish(),
      reasoning_details: z.array(reasoningDetailSchema).nullish(),
      refusal: z.string().nullish(),
      name: z.string().optional(),
    })
    .refine((m) => (m.content !== undefined && m.content !== null) || (m.tool_calls?.length ?? 0) > 0, {
      message: 'an assistant message needs content or tool_calls',
      path: ['content'],
    }),
  z.object({ role: z.literal('tool'), content: textContent, tool_call_id: z.string().min(1) }),
]);

/** A function or JSON schema name, as OpenAI takes it. */
const functionName = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and -, at most 64');

const toolSchema = z.object({
  type: z.literal('function', { error: (issue) => (issue.input === 'mcp' ? MCP_TOOLS_NOT_RUN_HERE : undefined) }),
  function: z.object({
    name: functionName,
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullish(),
  }),
  cache_control: cacheControlSchema.optional(),
});

const toolChoiceSchema = z.union([
  z.enum(['none', 'auto', 'required']),
  z.object({ type: z.literal('function'), function: z.object({ name: z.string().min(1) }) }),
]);

const responseFormatSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    json_schema: z.object({
      name: functionName,
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullish(),
    }),
  }),
]);

/**
 * Effort levels clients send. `low`, `medium` and `high` work on every
 * reasoning family; the others only where the model's catalog entry lists
 * them (`minimal` on GPT-5, say), and are refused elsewhere by name.
 */
export const reasoningEffortSchema = z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']);

export const reasoningSchema = z.object({
  effort: reasoningEffortSchema.optional(),
  max_tokens: z.number().int().nonnegative().optional(),
});

const positiveTokens = z.number().int().positive();

/**
 * Images (`image_url` parts, by URL or inline) in one request, over all its
 * messages: as many as Anthropic's Messages API takes, so no upstream's own
 * allowance is cut. An upstream that takes images inline only (Gemini) has
 * the gateway download each one; those downloads have their own bounds
 * (at most 4 at a time, 50 MB in all).
 */
export const MAX_IMAGES_PER_REQUEST = 100;

export const chatRequestSchema = z
  .object({
    model: z.string().min(1).max(256),
    messages: z.array(chatMessageSchema).min(1, 'at least one message is required').max(10_000),
    stream: z.boolean().nullish(),
    stream_options: z.object({ include_usage: z.boolean().optional() }).nullish(),
    tools: z.array(toolSchema).max(128).nullish(),
    tool_choice: toolChoiceSchema.nullish(),
    parallel_tool_calls: z.boolean().nullish(),
    response_format: responseFormatSchema.nullish(),
    temperature: z.number().min(0).max(2).nullish(),
    top_p: z.number().min(0).max(1).nullish(),
    top_k: z.number().int().positive().nullish(),
    max_tokens: positiveTokens.nullish(),
    max_completion_tokens: positiveTokens.nullish(),
    stop: z.union([z.string(), z.array(z.string()).max(4)]).nullish(),
    n: z.number().int().min(1).max(8).nullish(),
    seed: z.number().int().nullish(),
    presence_penalty: z.number().min(-2).max(2).nullish(),
    frequency_penalty: z.number().min(-2).max(2).nullish(),
    logit_bias: z.record(z.string(), z.number().min(-100).max(100)).nullish(),
    logprobs: z.boolean().nullish(),
    top_logprobs: z.number().int().min(0).max(20).nullish(),
    user: z.string().max(256).nullish(),
    /**
     * OpenAI's prompt-cache routing key and retention ("in-memory" or
     * "24h"): forwarded to OpenAI-protocol upstreams (the key scoped to the
     * API key, as `user` is; on xAI as its `x-grok-conv-id` header) and
     * dropped for Anthropic and Gemini, which cache by `cache_control` or
     * on their own.
     */
    prompt_cache_key: z.string().max(1024).nullish(),
    prompt_cache_retention: z.enum(['in-memory', '24h']).nullish(),
    reasoning_effort: reasoningEffortSchema.nullish(),
    reasoning: reasoningSchema.nullish(),
  })
  .superRefine((req, ctx) => {
    const choice = req.tool_choice;
    if (choice && typeof choice === 'object') {
      if (!req.tools?.some((t) => t.function.name === choice.function.name)) {
        ctx.addIssue({ code: 'custom', path: ['tool_choice', 'function', 'name'], message: `names no tool in "tools": "${choice.function.name}"` });
      }
    } else if (choice === 'required' && !req.tools?.length) {
      ctx.addIssue({ code: 'custom', path: ['tool_choice'], message: '"required" needs at least one tool in "tools"' });
    }
    if (req.stream_options && !req.stream) {
      ctx.addIssue({ code: 'custom', path: ['stream_options'], message: 'is only allowed when "stream" is true' });
    }
    const extra = firstImageOverLimit(req.messages);
    if (extra) {
      ctx.addIssue({
        code: 'custom',
        path: ['messages', extra.message, 'content', extra.part, 'image_url'],
        message: `is image number ${MAX_IMAGES_PER_REQUEST + 1}; a request may carry at most ${MAX_IMAGES_PER_REQUEST} images. Send fewer images`,
      });
    }
  });

function firstImageOverLimit(messages: ChatMessage[]): { message: number; part: number } | undefined {
  let images = 0;
  for (const [message, m] of messages.entries()) {
    if (m.role !== 'user' || typeof m.content === 'string') continue;
    for (const [part, p] of m.content.entries()) {
      if (p.type === 'image_url' && ++images > MAX_IMAGES_PER_REQUEST) return { message, part };
    }
  }
  return undefined;
}

export type ChatRequest = z.infer<typeof chatRequestSchema>;
export type ChatMessage = z.infer<typeof chatMessageSchema>;
export type ReasoningDetail = z.infer<typeof reasoningDetailSchema>;
export type CacheControl = z.infer<typeof cacheControlSchema>;
