import { z } from 'zod';
import { reasoningEffortSchema } from '../providers/chat-request';

/**
 * `POST /v1/responses`, in the OpenAI wire shape. Objects are loose: a
 * native route forwards the fields it allows (native-request-fields.ts) with
 * their nested objects as the client sent them, and the stateless bridge
 * refuses by name what it cannot carry (bridge-limits.ts). What the gateway reads must have the
 * documented type, so a malformed request is a 400 naming the field.
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */

const fileId = z.string().min(1).max(256);

export const inputTextPartSchema = z.looseObject({ type: z.literal('input_text'), text: z.string() });
export const inputImagePartSchema = z
  .looseObject({
    type: z.literal('input_image'),
    image_url: z.string().max(30 * 1024 * 1024).nullish(),
    file_id: fileId.nullish(),
    detail: z.enum(['auto', 'low', 'high']).nullish(),
  })
  .refine((part) => Boolean(part.image_url) !== Boolean(part.file_id), { message: 'give exactly one of "image_url" or "file_id"' });
export const inputFilePartSchema = z
  .looseObject({
    type: z.literal('input_file'),
    file_id: fileId.nullish(),
    file_data: z.string().nullish(),
    file_url: z.string().nullish(),
    filename: z.string().max(1024).nullish(),
  })
  .refine((part) => [part.file_id, part.file_data, part.file_url].filter(Boolean).length === 1, {
    message: 'give exactly one of "file_id", "file_data" or "file_url"',
  });
const outputTextPartSchema = z.looseObject({ type: z.literal('output_text'), text: z.string() });
const refusalPartSchema = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });

export const contentPartSchema = z.union([inputTextPartSchema, inputImagePartSchema, inputFilePartSchema, outputTextPartSchema, refusalPartSchema]);

export const messageItemSchema = z.looseObject({
  type: z.literal('message').optional(),
  role: z.enum(['user', 'assistant', 'system', 'developer']),
  content: z.union([z.string(), z.array(contentPartSchema)]),
});

export const reasoningItemSchema = z.looseObject({
  type: z.literal('reasoning'),
  id: z.string().nullish(),
  summary: z.array(z.looseObject({ type: z.string(), text: z.string() })).default([]),
  encrypted_content: z.string().nullish(),
});

export const functionCallItemSchema = z.looseObject({
  type: z.literal('function_call'),
  id: z.string().nullish(),
  call_id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.string(),
});

export const functionCallOutputItemSchema = z.looseObject({
  type: z.literal('function_call_output'),
  call_id: z.string().min(1),
  output: z.union([z.string(), z.array(contentPartSchema)]),
});

/** Items the gateway does not read (item references, built-in tool calls): refused by name on both kinds of route (native-request-fields.ts, bridge-limits.ts). */
const otherItemSchema = z.looseObject({ type: z.string() }).refine(
  (item) => !['message', 'reasoning', 'function_call', 'function_call_output'].includes(item.type),
  { message: 'is not a valid item of its type' },
);

export const inputItemSchema = z.union([messageItemSchema, reasoningItemSchema, functionCallItemSchema, functionCallOutputItemSchema, otherItemSchema]);

export const functionToolSchema = z.looseObject({
  type: z.literal('function'),
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and -, at most 64'),
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().nullish(),
});

const toolChoiceSchema = z.union([
  z.enum(['none', 'auto', 'required']),
  z.looseObject({ type: z.literal('function'), name: z.string().min(1) }),
  z.looseObject({ type: z.string() }),
]);

export const responsesRequestSchema = z.looseObject({
  model: z.string().min(1).max(256),
  input: z.union([z.string(), z.array(inputItemSchema).max(10_000)]),
  instructions: z.string().nullish(),
  tools: z.array(z.union([functionToolSchema, z.looseObject({ type: z.string() })])).max(128).nullish(),
  tool_choice: toolChoiceSchema.nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  max_output_tokens: z.number().int().positive().nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  stream: z.boolean().nullish(),
  store: z.boolean().nullish(),
  reasoning: z.looseObject({ effort: reasoningEffortSchema.nullish(), summary: z.string().nullish() }).nullish(),
  text: z.looseObject({ format: z.looseObject({ type: z.string() }).nullish() }).nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  user: z.string().max(256).nullish(),
  prompt_cache_key: z.string().max(1024).nullish(),
  prompt_cache_retention: z.enum(['in-memory', '24h']).nullish(),
  previous_response_id: z.string().nullish(),
  conversation: z.unknown().optional(),
  background: z.boolean().nullish(),
  include: z.array(z.string()).nullish(),
});

export type ResponsesRequest = z.infer<typeof responsesRequestSchema>;
export type InputItem = z.infer<typeof inputItemSchema>;
export type ContentPart = z.infer<typeof contentPartSchema>;
export type FunctionTool = z.infer<typeof functionToolSchema>;
