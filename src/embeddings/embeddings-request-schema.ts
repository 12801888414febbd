import { z } from 'zod';

/** `POST /v1/embeddings`, in the OpenAI wire shape: text or token arrays, one or many. */
export const embeddingsRequestSchema = z.object({
  model: z.string().min(1).max(256),
  input: z.union([
    z.string().min(1, 'must not be empty'),
    z.array(z.string().min(1, 'must not be empty')).min(1, 'must have at least one item'),
    z.array(z.number().int().nonnegative()).min(1, 'must have at least one token'),
    z.array(z.array(z.number().int().nonnegative()).min(1)).min(1, 'must have at least one item'),
  ]),
  dimensions: z.number().int().positive().nullish(),
  encoding_format: z.enum(['float', 'base64']).nullish(),
  user: z.string().max(256).nullish(),
});

export type EmbeddingsRequest = z.infer<typeof embeddingsRequestSchema>;
