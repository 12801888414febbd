import { createHash } from 'node:crypto';
import type { Principal } from './principal';

/**
 * The value an upstream sees for a client's end-user identity (`user`,
 * `safety_identifier`, Anthropic's `metadata.user_id`) or cache group
 * (`prompt_cache_key`): a hash of the API key and the client's value, so
 * that two keys' end users never share an identity, and two keys never
 * share a prompt cache, on the operator's upstream account. Stable for one
 * key and value (the upstream's abuse signals and cache hits still work);
 * a temporary credential speaks for the key that minted it. 64 hex
 * characters: within every upstream's limit (OpenAI's `safety_identifier`
 * takes at most 64).
 */
export function endUserIdentity(principal: Principal, value: string): string {
  return createHash('sha256')
    .update(principal.parentKeyId ?? principal.keyId)
    .update('\0')
    .update(value)
    .digest('hex');
}
