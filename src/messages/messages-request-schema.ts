import { z } from 'zod';

/**
 * `POST /v1/messages` and `/v1/messages/count_tokens`, in Anthropic's wire
 * shape: what the gateway reads of a request, checked before anything else
 * (a malformed request is a 400 in Anthropic's error shape, whatever the
 * model). Objects are loose: a field the gateway does not read passes the
 * check, and a native route forwards only the allowlisted ones
 * (native-request-fields.ts); a content block of a kind the gateway does
 * not serve is refused by name where the request is checked for its route.
 * @see https://docs.anthropic.com/en/api/messages
 */

export const cacheControlSchema = z.looseObject({ type: z.literal('ephemeral'), ttl: z.enum(['5m', '1h']).optional() });
const cacheControl = cacheControlSchema.nullish();

const textBlockSchema = z.looseObject({ type: z.literal('text'), text: z.string(), cache_control: cacheControl });

const imageSourceSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('base64'), media_type: z.enum(['image/jpeg', 'image/png', 'image/gif', 'image/webp']), data: z.string() }),
  z.looseObject({ type: z.literal('url'), url: z.string().min(1) }),
  z.looseObject({ type: z.literal('file'), file_id: z.string() }),
]);
const imageBlockSchema = z.looseObject({ type: z.literal('image'), source: imageSourceSchema, cache_control: cacheControl });

const documentSourceSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('base64'), media_type: z.literal('application/pdf'), data: z.string() }),
  z.looseObject({ type: z.literal('text'), media_type: z.literal('text/plain'), data: z.string() }),
  z.looseObject({ type: z.literal('url'), url: z.string().min(1) }),
  z.looseObject({ type: z.literal('content'), content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]) }),
  z.looseObject({ type: z.literal('file'), file_id: z.string() }),
]);
const documentBlockSchema = z.looseObject({
  type: z.literal('document'),
  source: documentSourceSchema,
  title: z.string().nullish(),
  context: z.string().nullish(),
  cache_control: cacheControl,
});

const toolUseBlockSchema = z.looseObject({ type: z.literal('tool_use'), id: z.string().min(1), name: z.string().min(1), input: z.unknown(), cache_control: cacheControl });
const toolResultBlockSchema = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]).optional(),
  is_error: z.boolean().optional(),
  cache_control: cacheControl,
});
const thinkingBlockSchema = z.looseObject({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() });
const redactedThinkingBlockSchema = z.looseObject({ type: z.literal('redacted_thinking'), data: z.string() });

/** The blocks the gateway serves; any other kind is checked for by name (`checkBlockKinds`), so this union stays exact. */
export const contentBlockSchema = z.discriminatedUnion('type', [
  textBlockSchema, imageBlockSchema, documentBlockSchema, toolUseBlockSchema, toolResultBlockSchema, thinkingBlockSchema, redactedThinkingBlockSchema,
]);

/** A block of any kind, `type` named: the other kinds are refused by name, not as a shape error. */
const anyBlockSchema = z.looseObject({ type: z.string() });

const messageSchema = z.looseObject({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string(), z.array(anyBlockSchema)]),
});

const customToolSchema = z.looseObject({
  type: z.literal('custom').optional(),
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,128}$/, 'letters, digits, _ and -, at most 128'),
  description: z.string().optional(),
  input_schema: z.record(z.string(), z.unknown()),
  cache_control: cacheControl,
});

const toolChoiceSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('auto'), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({ type: z.literal('any'), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({ type: z.literal('tool'), name: z.string().min(1), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({ type: z.literal('none') }),
]);

const thinkingSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('enabled'), budget_tokens: z.number().int().min(1) }),
  z.looseObject({ type: z.literal('adaptive') }),
  z.looseObject({ type: z.literal('disabled') }),
]);

/** `output_config.effort`: how much a Claude model spends on its answer, thinking included. */
export const EFFORTS = ['low', 'medium', 'high', 'max'] as const;

const countedFields = {
  model: z.string().min(1).max(256),
  messages: z.array(messageSchema).min(1, 'at least one message is required').max(10_000),
  system: z.union([z.string(), z.array(textBlockSchema)]).optional(),
  /** Custom tools are checked here; a tool with another `type` (Anthropic's own) is refused by name where the route is known. */
  tools: z.array(z.looseObject({ type: z.string().optional() })).max(128).optional(),
  tool_choice: toolChoiceSchema.optional(),
  thinking: thinkingSchema.optional(),
  output_config: z.looseObject({
    effort: z.enum(EFFORTS).optional(),
    /** Structured output: the answer's text is JSON matching `schema`. */
    format: z.looseObject({ type: z.literal('json_schema'), schema: z.record(z.string(), z.unknown()) }).optional(),
  }).optional(),
};

export const countTokensRequestSchema = z.looseObject(countedFields);

export const messagesRequestSchema = z.looseObject({
  ...countedFields,
  max_tokens: z.number().int().min(1),
  stream: z.boolean().optional(),
  stop_sequences: z.array(z.string()).max(1_000).optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: z.number().int().min(0).optional(),
  metadata: z.looseObject({ user_id: z.string().max(256).nullish() }).optional(),
  service_tier: z.string().optional(),
});

export type MessagesRequest = z.infer<typeof messagesRequestSchema>;
export type CountTokensRequest = z.infer<typeof countTokensRequestSchema>;
export type ContentBlock = z.infer<typeof contentBlockSchema>;
export type InputMessage = MessagesRequest['messages'][number];
export type CustomTool = z.infer<typeof customToolSchema>;
export type ToolChoice = z.infer<typeof toolChoiceSchema>;
export type TextBlock = z.infer<typeof textBlockSchema>;

export { customToolSchema };
