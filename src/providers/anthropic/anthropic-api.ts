import { z } from 'zod';

/**
 * The parts of Anthropic Messages answers the gateway reads. Objects are
 * loose: fields we do not read pass, fields we read must have the documented
 * type, so a changed upstream fails here, at the border. Block and delta
 * types the gateway does not know (server tools, citations) are accepted and
 * skipped, as Anthropic's own SDK does with unknown stream events.
 * @see https://docs.anthropic.com/en/api/messages
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */

const tokenCount = z.number().int().nonnegative();

export const anthropicUsageSchema = z.looseObject({
  input_tokens: tokenCount.nullish(),
  output_tokens: tokenCount.nullish(),
  cache_creation_input_tokens: tokenCount.nullish(),
  cache_read_input_tokens: tokenCount.nullish(),
  cache_creation: z.looseObject({ ephemeral_5m_input_tokens: tokenCount.nullish(), ephemeral_1h_input_tokens: tokenCount.nullish() }).nullish(),
  output_tokens_details: z.looseObject({ thinking_tokens: tokenCount.nullish() }).nullish(),
});

type TypedMember = z.ZodObject<{ type: z.ZodLiteral<string> }, z.core.$loose>;

/**
 * A discriminated union of the known members; any other object whose `type`
 * is none of theirs reads as `{type: 'other'}`, for the reader to skip.
 */
function withUnknownMembers<const Known extends readonly [TypedMember, ...TypedMember[]]>(members: Known) {
  const known = new Set(members.map((member) => member.shape.type.value));
  const other = z
    .looseObject({ type: z.string().refine((type) => !known.has(type)) })
    .transform(() => ({ type: 'other' as const }));
  return z.union([z.discriminatedUnion('type', members), other]);
}

const textBlockSchema = z.looseObject({ type: z.literal('text'), text: z.string() });
const thinkingBlockSchema = z.looseObject({ type: z.literal('thinking'), thinking: z.string(), signature: z.string().default('') });
const redactedThinkingBlockSchema = z.looseObject({ type: z.literal('redacted_thinking'), data: z.string() });
const toolUseBlockSchema = z.looseObject({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() });

export const anthropicContentBlockSchema = withUnknownMembers([textBlockSchema, thinkingBlockSchema, redactedThinkingBlockSchema, toolUseBlockSchema]);

export const anthropicMessageSchema = z.looseObject({
  id: z.string(),
  model: z.string(),
  content: z.array(anthropicContentBlockSchema),
  stop_reason: z.string().nullable(),
  usage: anthropicUsageSchema,
});

const contentDeltaSchema = withUnknownMembers([
  z.looseObject({ type: z.literal('text_delta'), text: z.string() }),
  z.looseObject({ type: z.literal('thinking_delta'), thinking: z.string() }),
  z.looseObject({ type: z.literal('signature_delta'), signature: z.string() }),
  z.looseObject({ type: z.literal('input_json_delta'), partial_json: z.string() }),
]);

const blockIndex = z.number().int().nonnegative();

export const anthropicErrorBodySchema = z.looseObject({
  type: z.literal('error'),
  error: z.looseObject({ type: z.string(), message: z.string().nullish() }),
});

/** Stream events by name; `ping` and unknown events carry nothing the gateway reads. */
export const anthropicStreamEventSchema = z.discriminatedUnion('type', [
  z.looseObject({
    type: z.literal('message_start'),
    message: z.looseObject({ id: z.string(), model: z.string(), usage: anthropicUsageSchema }),
  }),
  z.looseObject({ type: z.literal('content_block_start'), index: blockIndex, content_block: anthropicContentBlockSchema }),
  z.looseObject({ type: z.literal('content_block_delta'), index: blockIndex, delta: contentDeltaSchema }),
  z.looseObject({ type: z.literal('content_block_stop'), index: blockIndex }),
  z.looseObject({
    type: z.literal('message_delta'),
    delta: z.looseObject({ stop_reason: z.string().nullish() }),
    usage: anthropicUsageSchema.nullish(),
  }),
  z.looseObject({ type: z.literal('message_stop') }),
  z.looseObject({ type: z.literal('ping') }),
  anthropicErrorBodySchema,
]);

export const KNOWN_STREAM_EVENTS: ReadonlySet<string> = new Set(anthropicStreamEventSchema.options.map((option) => option.shape.type.value));

export type AnthropicUsageWire = z.infer<typeof anthropicUsageSchema>;
export type AnthropicContentBlockWire = z.infer<typeof anthropicContentBlockSchema>;
export type AnthropicMessageWire = z.infer<typeof anthropicMessageSchema>;
export type AnthropicStreamEventWire = z.infer<typeof anthropicStreamEventSchema>;
export type AnthropicErrorBodyWire = z.infer<typeof anthropicErrorBodySchema>;
