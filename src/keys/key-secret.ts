import { createHash, randomBytes } from 'node:crypto';

const KEY_PREFIX = 'sk-gw-';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new API key secret: `sk-gw-` and 40 base62 characters (about 238 bits). */
export function newKeySecret(): string {
  const bytes = randomBytes(40);
  let out = KEY_PREFIX;
  // 248 = 4 * 62: rejecting bytes >= 248 keeps every character equally likely.
  for (const b of bytes) if (b < 248) out += ALPHABET[b % 62];
  while (out.length < KEY_PREFIX.length + 40) {
    const b = randomBytes(1)[0];
    if (b < 248) out += ALPHABET[b % 62];
  }
  return out;
}

/**
 * The longest bearer string looked up as a key. Gateway keys are 46
 * characters (`sk-gw-` and 40 base62); the bound leaves room for a longer
 * format later while refusing, before any hashing or caching, the
 * kilobytes-long strings a client can put in a header.
 */
export const MAX_KEY_SECRET_LENGTH = 256;

/** Whether a bearer string could be a key at all: longer strings are refused as invalid without a lookup. */
export function mayBeKeySecret(secret: string): boolean {
  return secret.length > 0 && secret.length <= MAX_KEY_SECRET_LENGTH;
}

/** Keys are stored only as this digest; the secret is shown once at creation. */
export function hashKeySecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** The part of a secret safe to show in listings. */
export function keyDisplayPrefix(secret: string): string {
  return secret.slice(0, KEY_PREFIX.length + 4);
}
