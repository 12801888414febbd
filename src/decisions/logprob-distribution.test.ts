import { distributionAt, type TokenLogprobs } from './logprob-distribution';
import { nestedStringOffsets } from './json-value-offsets';

const tok = (token: string, p: number, alternatives: Array<[string, number]> = []): TokenLogprobs[number] => ({
  token, logprob: Math.log(p), top_logprobs: [{ token, logprob: Math.log(p) }, ...alternatives.map(([t, q]) => ({ token: t, logprob: Math.log(q) }))],
});

describe('reading answer probabilities from token log-probabilities', () => {
  it('finds each answer value two levels down, whatever the spacing', () => {
    const text = '{ "q1" : {"answer": "yes", "x": [1, {"answer": "no"}]}, "q2": {"level":"3"} }';
    const offsets = nestedStringOffsets(text);
    expect(text.slice(offsets.get('q1\u0000answer')!, offsets.get('q1\u0000answer')! + 3)).toBe('yes');
    expect(text[offsets.get('q2\u0000level')!]).toBe('3');
    expect(offsets.has('q1\u0000x')).toBe(false);
    expect(nestedStringOffsets('not json').size).toBe(0);
  });

  it('sums the alternatives that spell each choice, after the part of the token before the value', () => {
    const text = '{"q":{"answer":"yes"}}';
    const tokens = [tok('{"q":{"answer":', 1), tok('"yes', 0.7, [['"no', 0.2], ['"y', 0.05], ['"maybe', 0.05]]), tok('"}}', 1)];
    const at = nestedStringOffsets(text).get('q\u0000answer')!;
    const d = distributionAt(tokens, text, at, ['yes', 'no'])!;
    // "y" begins only "yes"; "maybe" spells no choice and is left out.
    expect(d[0]).toBeCloseTo(0.75 / 0.95, 6);
    expect(d[1]).toBeCloseTo(0.2 / 0.95, 6);
  });

  it('tells "1" from "10" by the whole spelling, and gives up where a token could be either', () => {
    const choices = Array.from({ length: 10 }, (_, i) => String(i + 1));
    const text = '{"s":{"level":"10"}}';
    const at = nestedStringOffsets(text).get('s\u0000level')!;
    const clear = [tok('{"s":{"level":', 1), tok('"10', 0.6, [['"1', 0.3], ['"2', 0.1]]), tok('"}}', 1)];
    const d = distributionAt(clear, text, at, choices)!;
    expect(d[9]).toBeCloseTo(0.6, 6);
    expect(d[0]).toBeCloseTo(0.3, 6);
    const split = [tok('{"s":{"level":"', 1), tok('1', 0.9, [['2', 0.1]]), tok('0"}}', 1)];
    // The chosen token "1" begins both "1" and "10" only by its spelling "1" = "1": it counts for "1", which is not the value written.
    expect(distributionAt(split, text, at, choices)?.[0]).toBeCloseTo(0.9, 6);
  });

  it('returns nothing when the tokens do not spell the text or the chosen token is not readable', () => {
    const text = '{"q":{"answer":"yes"}}';
    const at = nestedStringOffsets(text).get('q\u0000answer')!;
    expect(distributionAt([tok('something else entirely', 1)], text, at, ['yes', 'no'])).toBeUndefined();
    // "ye" begins both "yes" and "yeah": which one the model chose cannot be told from this token.
    expect(distributionAt([tok('{"q":{"answer":"', 1), tok('ye', 0.8, [['n', 0.2]]), tok('s"}}', 1)], text, at, ['yes', 'yeah', 'no'])).toBeUndefined();
  });
});
