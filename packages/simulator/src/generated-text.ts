import { pickOne, randomInt, seededRandom } from './deterministic-random';

/**
 * Plausible English-looking prose from a seed, for answers that must be
 * deterministic but should still look like text in a demo or a log.
 */

export const VOCABULARY = [
  'the', 'a', 'model', 'gateway', 'request', 'answer', 'token', 'stream', 'route', 'provider',
  'usage', 'price', 'budget', 'latency', 'cache', 'prompt', 'result', 'value', 'system', 'user',
  'simple', 'quick', 'careful', 'clear', 'useful', 'small', 'large', 'steady', 'local', 'remote',
  'returns', 'sends', 'reads', 'counts', 'checks', 'keeps', 'finds', 'builds', 'writes', 'makes',
  'and', 'with', 'for', 'from', 'into', 'over', 'about', 'because', 'while', 'when',
  'every', 'each', 'some', 'many', 'one', 'two', 'three', 'first', 'next', 'last',
  'data', 'record', 'report', 'signal', 'message', 'chunk', 'choice', 'reason', 'detail', 'limit',
  'is', 'was', 'can', 'should', 'will', 'may', 'does', 'has', 'gives', 'takes',
  'fast', 'exact', 'honest', 'plain', 'short', 'long', 'early', 'late', 'new', 'known',
  'this', 'that', 'it', 'they', 'we', 'its', 'their', 'our', 'there', 'here',
] as const;

const MIN_SENTENCE_WORDS = 6;
const MAX_SENTENCE_WORDS = 14;

export function generateWords(seed: number, wordCount: number): string {
  const random = seededRandom(seed);
  const sentences: string[] = [];
  let remaining = wordCount;
  while (remaining > 0) {
    const length = Math.min(remaining, randomInt(random, MIN_SENTENCE_WORDS, MAX_SENTENCE_WORDS));
    const words = Array.from({ length }, () => pickOne(random, VOCABULARY));
    sentences.push(capitalize(words.join(' ')) + '.');
    remaining -= length;
  }
  return sentences.join(' ');
}

/** A short phrase (a few words, no punctuation) for string values inside generated JSON. */
export function generatePhrase(seed: number, wordCount: number): string {
  const random = seededRandom(seed);
  return Array.from({ length: wordCount }, () => pickOne(random, VOCABULARY)).join(' ');
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
