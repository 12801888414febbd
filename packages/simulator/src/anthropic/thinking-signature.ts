import { createHmac } from 'node:crypto';

/**
 * Signatures for the simulator's thinking blocks. Anthropic signs each
 * thinking block so that a client cannot alter the reasoning it sends back;
 * the simulator does the same with an HMAC of the thinking text under a
 * fixed secret (base64), so a tampered or invented block fails the check.
 * Redacted thinking is sealed the same way: its `data` is the base64 of the
 * HMAC followed by the hidden text.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#thinking-encryption
 */
const SIMULATOR_SECRET = 'model-gateway-simulator/thinking-signature/v1';
const MAC_BYTES = 32;

function mac(text: string): Buffer {
  return createHmac('sha256', SIMULATOR_SECRET).update(text, 'utf8').digest();
}

export function signThinking(thinking: string): string {
  return mac(thinking).toString('base64');
}

export function isValidThinkingSignature(thinking: unknown, signature: unknown): boolean {
  return typeof thinking === 'string' && typeof signature === 'string' && signature === signThinking(thinking);
}

export function sealRedactedThinking(hiddenText: string): string {
  return Buffer.concat([mac(hiddenText), Buffer.from(hiddenText, 'utf8')]).toString('base64');
}

/** The hidden text of sealed data, or undefined when the data was not sealed by the simulator or was altered. */
export function unsealRedactedThinking(data: unknown): string | undefined {
  if (typeof data !== 'string') return undefined;
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length < MAC_BYTES || bytes.toString('base64') !== data) return undefined;
  const hiddenText = bytes.subarray(MAC_BYTES).toString('utf8');
  return mac(hiddenText).equals(bytes.subarray(0, MAC_BYTES)) ? hiddenText : undefined;
}
