import { z } from 'zod';

/** OpenAI's `choices[].logprobs.content`: the answer's tokens with their log-probabilities and the top alternatives. */
const tokenLogprobsSchema = z.array(
  z.object({
    token: z.string(),
    logprob: z.number(),
    top_logprobs: z.array(z.object({ token: z.string(), logprob: z.number() })).default([]),
  }),
);

export type TokenLogprobs = z.infer<typeof tokenLogprobsSchema>;

/** The token list of an answer, or undefined when the upstream gave none (or something else). */
export function readTokenLogprobs(logprobs: unknown): TokenLogprobs | undefined {
  const content = (logprobs as { content?: unknown } | null | undefined)?.content;
  const parsed = tokenLogprobsSchema.safeParse(content);
  return parsed.success && parsed.data.length ? parsed.data : undefined;
}

/**
 * The probability of each of `choices` at the token where a value starts
 * (`offset` in the answer text), from that token's top alternatives: each
 * alternative that begins the same way as the chosen token (the quote or
 * whatever the token holds before the value) and then spells the start of
 * exactly one choice adds its probability to that choice; alternatives that
 * fit no choice, or more than one, are left out; the sums are normalised.
 * Undefined when the tokens do not spell the text, the chosen value is not
 * among the alternatives it can be told apart by, or nothing is left.
 */
export function distributionAt(tokens: TokenLogprobs, text: string, offset: number, choices: string[]): number[] | undefined {
  let start = 0;
  for (const t of tokens) {
    const end = start + t.token.length;
    if (offset < end) {
      if (text.slice(start, end) !== t.token) return undefined;
      return fromAlternatives(t, text.slice(start, offset), choices);
    }
    start = end;
  }
  return undefined;
}

function fromAlternatives(position: TokenLogprobs[number], prefix: string, choices: string[]): number[] | undefined {
  const alternatives = position.top_logprobs.some((a) => a.token === position.token) ? position.top_logprobs : [{ token: position.token, logprob: position.logprob }, ...position.top_logprobs];
  const mass = choices.map(() => 0);
  let chosenCounted = false;
  for (const alt of alternatives) {
    if (!alt.token.startsWith(prefix)) continue;
    const index = choiceSpelled(alt.token.slice(prefix.length), choices);
    if (index === undefined) continue;
    mass[index]! += Math.exp(alt.logprob);
    if (alt.token === position.token) chosenCounted = true;
  }
  const total = mass.reduce((a, b) => a + b, 0);
  if (!chosenCounted || !(total > 0)) return undefined;
  return mass.map((m) => m / total);
}

/** Which choice a token's text (after the prefix) begins: one spelled whole wins over ones it only begins. */
function choiceSpelled(rest: string, choices: string[]): number | undefined {
  if (!rest) return undefined;
  const whole = choices.flatMap((c, i) => (rest === c || rest.startsWith(`${c}"`) ? [i] : []));
  if (whole.length === 1) return whole[0];
  if (whole.length > 1) return undefined;
  const begun = choices.flatMap((c, i) => (c.startsWith(rest) ? [i] : []));
  return begun.length === 1 ? begun[0] : undefined;
}
