import { createHash } from 'node:crypto';
import { FailureCounter } from '../failure-counter';
import type { CacheControl } from './messages-request';

/**
 * Anthropic's prompt caching, deterministically: a `cache_control` block
 * ends a cacheable prefix (tools, then system, then messages). A prefix seen
 * before, by the same model, is read from the cache; the rest up to the last
 * breakpoint is written, counted under the lifetime its breakpoint asks for
 * (5 minutes unless `ttl: "1h"`). Prefixes shorter than the minimum are not
 * cached at all. Lifetimes do not expire here: a test decides when a prompt
 * repeats, not the clock.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching
 */

/** One cacheable unit of the prompt: a tool, a system block or a message block, in cache order. */
export interface PromptPiece {
  tokens: number;
  /** What the piece is, for telling prefixes apart. */
  identity: string;
  cacheControl?: CacheControl | undefined;
}

export interface CacheOutcome {
  readTokens: number;
  write5mTokens: number;
  write1hTokens: number;
}

/** The smallest prefix Sonnet and Opus models cache. */
const MIN_CACHEABLE_TOKENS = 1024;
const REMEMBERED_PREFIXES = 10_000;

export class PromptCache {
  /** Prefixes written so far (a bounded count of sightings: the oldest are forgotten first). */
  private readonly written = new FailureCounter(REMEMBERED_PREFIXES);

  /** What this prompt reads from and writes to the cache; the prefixes it writes are remembered. */
  use(model: string, pieces: readonly PromptPiece[]): CacheOutcome {
    const outcome: CacheOutcome = { readTokens: 0, write5mTokens: 0, write1hTokens: 0 };
    const prefixHash = createHash('sha256').update(model);
    let tokensSoFar = 0;
    let tokensAccounted = 0;
    for (const piece of pieces) {
      prefixHash.update(`\n${piece.identity}`);
      tokensSoFar += piece.tokens;
      if (!piece.cacheControl || tokensSoFar < MIN_CACHEABLE_TOKENS) continue;
      const seenBefore = this.written.countSighting(prefixHash.copy().digest('base64')) > 1;
      const segment = tokensSoFar - tokensAccounted;
      tokensAccounted = tokensSoFar;
      if (seenBefore) {
        // A longer prefix found in the cache covers the writes counted for shorter ones.
        outcome.readTokens = tokensSoFar;
        outcome.write5mTokens = outcome.write1hTokens = 0;
      } else if (piece.cacheControl.ttl === '1h') outcome.write1hTokens += segment;
      else outcome.write5mTokens += segment;
    }
    return outcome;
  }
}
