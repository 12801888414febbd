import { randomBytes } from 'node:crypto';

/**
 * Random identifiers in the providers' own shapes (`chatcmpl-` + 29
 * alphanumerics, `call_` + 24, `req_` + 32 hex), so an adapter that checks a
 * prefix or a length sees nothing unusual.
 */
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomAlphanumericId(prefix: string, length: number): string {
  const bytes = randomBytes(length);
  let id = prefix;
  for (const byte of bytes) id += ALPHANUMERIC[byte % ALPHANUMERIC.length];
  return id;
}

export function randomHexId(prefix: string, length: number): string {
  return prefix + randomBytes(Math.ceil(length / 2)).toString('hex').slice(0, length);
}
