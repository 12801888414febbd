import { z } from 'zod';
import { reasoningDetailSchema, type ReasoningDetail } from '../../providers/chat-request';

/**
 * Provider reasoning state (Anthropic's signed thinking blocks, Gemini's
 * thought signatures) carried through a Responses `reasoning` item on a
 * bridged route. It rides in `encrypted_content`, the field Responses
 * clients already keep and send back unchanged, marked as the gateway's so
 * that it is never mistaken for OpenAI's own encrypted reasoning (which a
 * bridge cannot use, and refuses).
 */
const PREFIX = 'gwrs1.';

const detailsSchema = z.array(reasoningDetailSchema).min(1);

export function encodeReasoningState(details: readonly ReasoningDetail[]): string {
  return PREFIX + Buffer.from(JSON.stringify(details)).toString('base64url');
}

/** The details an item carries; undefined for content that is not the gateway's (OpenAI's own encrypted reasoning). */
export function decodeReasoningState(encrypted: string): ReasoningDetail[] | undefined {
  if (!encrypted.startsWith(PREFIX)) return undefined;
  try {
    const parsed = detailsSchema.safeParse(JSON.parse(Buffer.from(encrypted.slice(PREFIX.length), 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
