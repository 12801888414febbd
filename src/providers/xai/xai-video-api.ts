import { z } from 'zod';

/**
 * The parts of xAI's video answers the gateway reads. Objects are loose:
 * fields we do not read are kept for operators, fields we read must have the
 * documented type. A done answer without `status` but with a video is
 * accepted, as the Vercel AI SDK's xAI provider does.
 * @see https://docs.x.ai/docs/guides/video-generations
 */
export const xaiVideoSubmitResponseSchema = z.looseObject({ request_id: z.string().min(1) });

export const xaiVideoStatusResponseSchema = z.looseObject({
  status: z.enum(['pending', 'done', 'expired', 'failed']).nullish(),
  progress: z.number().nullish(),
  video: z
    .looseObject({
      url: z.string(),
      duration: z.number().nullish(),
      respect_moderation: z.boolean().nullish(),
    })
    .nullish(),
  model: z.string().nullish(),
  error: z.looseObject({ code: z.string().nullish(), message: z.string().nullish() }).nullish(),
});

export type XaiVideoStatusWire = z.infer<typeof xaiVideoStatusResponseSchema>;
