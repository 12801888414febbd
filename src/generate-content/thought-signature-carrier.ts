import type { ReasoningDetail } from '../providers/chat-request';
import { decodeReasoningState, encodeReasoningState } from '../chat/carried-reasoning-state';

/**
 * The reasoning state of a translated answer (Anthropic's signed thinking,
 * Gemini's own signatures through a mixed route) in the one field of
 * Gemini's dialect that clients keep and send back unchanged:
 * `thoughtSignature`. It rides on the first function call of the turn, or
 * on its first part, encoded as the gateway's (the same encoding the
 * Responses bridge keeps in `encrypted_content`).
 */
export function carriedSignature(details: readonly ReasoningDetail[]): string | undefined {
  return details.length ? encodeReasoningState(details) : undefined;
}

/**
 * The reasoning state a part sent back carries: the gateway's encoding, or
 * else Gemini's own signature (from a native answer), tied to the call it
 * came on, for a Gemini route to send back; other upstreams ignore it.
 */
export function signatureDetails(signature: string, toolCallId: string | undefined): ReasoningDetail[] {
  return decodeReasoningState(signature) ?? [{ type: 'thought_signature', signature, ...(toolCallId ? { tool_call_id: toolCallId } : {}) }];
}
