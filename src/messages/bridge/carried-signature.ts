import type { ReasoningDetail } from '../../providers/chat-types';

/**
 * Reasoning state that has no Anthropic form, carried in a thinking block's
 * `signature` so that an Anthropic client keeps it and sends it back: a
 * Gemini thought signature (and the tool call it belongs to) is written as
 * `gateway.thought_signature.` + base64url of its JSON, and read back into
 * the `reasoning_details` item it was. A Gemini model that loses it refuses
 * the next turn of a tool round trip. Anthropic's own signatures never
 * start with the prefix, so they pass through untouched.
 */
const PREFIX = 'gateway.thought_signature.';

type ThoughtSignature = Extract<ReasoningDetail, { type: 'thought_signature' }>;

export function carriedSignature(detail: ThoughtSignature): string {
  const payload = { signature: detail.signature, ...(detail.tool_call_id ? { tool_call_id: detail.tool_call_id } : {}) };
  return PREFIX + Buffer.from(JSON.stringify(payload)).toString('base64url');
}

/** The thought signature a thinking block's signature carries, or undefined when it is an Anthropic signature (or unreadable). */
export function readCarriedSignature(signature: string): ThoughtSignature | undefined {
  if (!signature.startsWith(PREFIX)) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(signature.slice(PREFIX.length), 'base64url').toString('utf8')) as { signature?: unknown; tool_call_id?: unknown };
    if (typeof payload.signature !== 'string') return undefined;
    return { type: 'thought_signature', signature: payload.signature, ...(typeof payload.tool_call_id === 'string' ? { tool_call_id: payload.tool_call_id } : {}) };
  } catch {
    return undefined;
  }
}
