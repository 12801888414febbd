import { z } from 'zod';

/** `POST /v1/decisions`. Questions and images are checked in depth after the model is known (their limits are the model's). */
export const decisionRequestSchema = z.object({
  model: z.string().min(1).max(256),
  /** The material to judge: text, or a JSON object. May be empty only when valid images come with it. */
  state: z.union([z.string(), z.record(z.string(), z.unknown())], { error: 'must be a string or a JSON object' }),
  /** Question id -> question; checked by `readQuestions`. */
  questions: z.record(z.string(), z.unknown()).optional(),
  question_generation: z
    .object({
      enabled: z.boolean().default(false),
      model: z.string().min(1).max(256).optional(),
    })
    .optional(),
  /** Data URLs (strings or `{url}` objects); checked by `readDecisionImages`. */
  images: z.array(z.unknown()).optional(),
});

export type DecisionRequest = z.infer<typeof decisionRequestSchema>;
