import { Transform } from 'node:stream';
import { ByteLimitExceededError } from './file-storage';

/**
 * Passes bytes through until more than `maxBytes` have come, then fails
 * with ByteLimitExceededError before passing the one too many: a put that
 * is over its limit never writes past it.
 */
export function byteLimit(maxBytes: number): Transform & { readonly bytes: number } {
  let bytes = 0;
  const limiter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (bytes > maxBytes) callback(new ByteLimitExceededError(maxBytes));
      else callback(null, chunk);
    },
  });
  return Object.defineProperty(limiter, 'bytes', { get: () => bytes }) as Transform & { readonly bytes: number };
}
