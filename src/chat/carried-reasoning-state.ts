import { z } from 'zod';
import { reasoningDetailSchema, type ReasoningDetail } from '../providers/chat-request';

/**
 * Provider reasoning state (Anthropic's signed thinking blocks, Gemini's
 * thought signatures) carried through a client dialect that has no field
 * for it, in the one opaque string its clients keep and send back
 * unchanged: a Responses `reasoning` item's `encrypted_content`, a Gemini
 * part's `thoughtSignature`, an Anthropic thinking block's `signature`.
 * Marked as the gateway's, so that it is never mistaken for the dialect's
 * own (OpenAI's encrypted reasoning, a Gemini or Anthropic signature), which
 * passes through untouched.
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
