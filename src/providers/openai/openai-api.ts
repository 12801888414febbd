import { z } from 'zod';

/**
 * The parts of OpenAI Chat Completions answers the gateway reads. Objects are
 * loose: fields we do not read are kept and passed on, fields we read must
 * have the documented type, so a changed upstream fails here, at the border.
 * @see https://platform.openai.com/docs/api-reference/chat
 */

const usageSchema = z.looseObject({
  prompt_tokens: z.number().int().nonnegative().nullish(),
  completion_tokens: z.number().int().nonnegative().nullish(),
  total_tokens: z.number().int().nonnegative().nullish(),
  prompt_tokens_details: z.looseObject({ cached_tokens: z.number().int().nullish(), cache_write_tokens: z.number().int().nullish() }).nullish(),
  completion_tokens_details: z.looseObject({ reasoning_tokens: z.number().int().nullish() }).nullish(),
});

const toolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal('function').default('function'),
  function: z.looseObject({ name: z.string(), arguments: z.string().default('') }),
});

const toolCallDeltaSchema = z.looseObject({
  index: z.number().int().nonnegative(),
  id: z.string().nullish(),
  type: z.literal('function').nullish(),
  function: z.looseObject({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});

export const openAIChatCompletionSchema = z.looseObject({
  id: z.string(),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.looseObject({
      index: z.number().int().nonnegative(),
      finish_reason: z.string().nullable(),
      message: z.looseObject({
        role: z.literal('assistant'),
        content: z.string().nullable(),
        reasoning_content: z.string().nullish(),
        tool_calls: z.array(toolCallSchema).nullish(),
        refusal: z.string().nullish(),
      }),
    }),
  ),
  usage: usageSchema.nullish(),
});

export const openAIChatChunkSchema = z.looseObject({
  id: z.string(),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.looseObject({
      index: z.number().int().nonnegative(),
      finish_reason: z.string().nullish(),
      delta: z.looseObject({
        role: z.string().nullish(),
        content: z.string().nullish(),
        reasoning_content: z.string().nullish(),
        tool_calls: z.array(toolCallDeltaSchema).nullish(),
        refusal: z.string().nullish(),
      }),
    }),
  ),
  usage: usageSchema.nullish(),
});

export type OpenAIChatCompletionWire = z.infer<typeof openAIChatCompletionSchema>;
export type OpenAIChatChunkWire = z.infer<typeof openAIChatChunkSchema>;
export type OpenAIUsageWire = z.infer<typeof usageSchema>;
