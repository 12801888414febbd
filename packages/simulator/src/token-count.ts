/**
 * The simulator's token rule: one token per started group of four characters
 * (UTF-16 code units), the usual rule of thumb for English with OpenAI's
 * tokenizers. It is deliberately not a real tokenizer: the gateway counts with
 * its own, and only needs the simulator's numbers to be deterministic and
 * self-consistent (prompt + completion = total, details inside their totals).
 */
export const CHARACTERS_PER_TOKEN = 4;

export function countTextTokens(text: string): number {
  return Math.ceil(text.length / CHARACTERS_PER_TOKEN);
}

/** The longest prefix of `text` that fits in `maxTokens` under the rule above. */
export function truncateToTokens(text: string, maxTokens: number): string {
  return text.slice(0, Math.max(0, maxTokens) * CHARACTERS_PER_TOKEN);
}
