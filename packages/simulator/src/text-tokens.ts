import { splitIntoPieces } from './text-pieces';

/**
 * Text cut into token-like pieces, for data given per token (such as
 * log-probabilities): GPT-4's pre-tokenizer pattern (words with their
 * leading space, runs of up to three digits, runs of punctuation, spaces),
 * then any piece past six characters cut further, as byte-pair merging
 * leaves long words in parts. Not OpenAI's tokenizer, nor the simulator's
 * token count (see token-count.ts); only the shape is alike. The pieces join
 * back to the text exactly and never split a surrogate pair.
 */
const PRE_TOKEN = /'(?:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+/giu;
const MAX_TOKEN_LENGTH = 6;

export function splitIntoTokens(text: string): string[] {
  const pieces = text.match(PRE_TOKEN) ?? [];
  // The pattern matches every character; should some text prove otherwise, fixed-size pieces still join back exactly.
  if (pieces.join('') !== text) return splitIntoPieces(text, MAX_TOKEN_LENGTH);
  return pieces.flatMap((piece) => splitIntoPieces(piece, MAX_TOKEN_LENGTH));
}
