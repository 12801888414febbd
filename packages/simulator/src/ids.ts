/**
 * Random identifiers in the providers' own shapes (`chatcmpl-` + 29
 * alphanumerics, `call_` + 24, `req_` + 32 hex), so an adapter that checks a
 * prefix or a length sees nothing unusual. They only need to be unique, not
 * secret: Math.random is enough, and much cheaper per request than
 * crypto.randomBytes, which showed in benchmark profiles.
 */
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';

export function randomAlphanumericId(prefix: string, length: number): string {
  return prefix + randomCharacters(ALPHANUMERIC, length);
}

export function randomHexId(prefix: string, length: number): string {
  return prefix + randomCharacters(HEX, length);
}

function randomCharacters(alphabet: string, length: number): string {
  let text = '';
  for (let index = 0; index < length; index++) text += alphabet[Math.floor(Math.random() * alphabet.length)];
  return text;
}
