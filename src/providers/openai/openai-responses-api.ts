import { z } from 'zod';

/**
 * The parts of OpenAI Responses answers the gateway reads: the response
 * object's identity and usage, each stream event's `type`, and the error an
 * `error` event or a failed response carries. Objects are loose: what the
 * gateway does not read (the output items, every other field) passes through
 * untouched; what it reads must have the documented type, so a changed
 * upstream fails here, at the border.
 * @see https://platform.openai.com/docs/api-reference/responses/object
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */

const tokenCount = z.number().int().nonnegative();

export const openAIResponsesUsageSchema = z.looseObject({
  input_tokens: tokenCount.nullish(),
  input_tokens_details: z.looseObject({ cached_tokens: tokenCount.nullish(), cache_write_tokens: tokenCount.nullish() }).nullish(),
  output_tokens: tokenCount.nullish(),
  output_tokens_details: z.looseObject({ reasoning_tokens: tokenCount.nullish() }).nullish(),
  total_tokens: tokenCount.nullish(),
});

export const openAIResponseSchema = z.looseObject({
  id: z.string(),
  status: z.string().nullish(),
  output: z.array(z.unknown()),
  usage: openAIResponsesUsageSchema.nullish(),
  error: z.looseObject({ code: z.string().nullish(), message: z.string().nullish() }).nullish(),
});

/** Every event names itself in `type`, which is also its SSE `event:` name. */
export const openAIResponsesEventSchema = z.looseObject({ type: z.string() });

/** `response.completed`, `response.incomplete` and `response.failed` carry the whole response. */
export const openAIResponsesFinalEventSchema = z.looseObject({ type: z.string(), response: openAIResponseSchema });

export type OpenAIResponsesUsageWire = z.infer<typeof openAIResponsesUsageSchema>;
