import { z } from 'zod';

/**
 * The Video object of the OpenAI Videos API, as far as the gateway reads it.
 * Loose: the other fields (`size`, `seconds`, `expires_at`, ...) are kept in
 * the raw answer for operators.
 * @see https://platform.openai.com/docs/api-reference/videos/object
 */
export const openAIVideoSchema = z.looseObject({
  id: z.string().min(1),
  status: z.enum(['queued', 'in_progress', 'completed', 'failed']),
  progress: z.number().nullish(),
  error: z.looseObject({ code: z.string().nullish(), message: z.string().nullish() }).nullish(),
});

export type OpenAIVideoWire = z.infer<typeof openAIVideoSchema>;
