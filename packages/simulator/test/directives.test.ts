import { parseDirectives, stripDirectives } from '../src/directives';

describe('parseDirectives', () => {
  it('reads every knob of a [sim ...] block', () => {
    const parsed = parseDirectives(
      'Question? [sim status=429 retry_after=2 code=rate_limit_exceeded fail_times=1 latency=200 pace=20 chunk=5 cut_after=3 stream_error=4 replay=text words=200 tool_calls=2 hang=1]',
    );

    expect(parsed).toEqual({
      ok: true,
      directives: {
        status: 429,
        retryAfter: 2,
        code: 'rate_limit_exceeded',
        failTimes: 1,
        latencyMs: 200,
        paceMs: 20,
        chunkSize: 5,
        cutAfter: 3,
        streamErrorAfter: 4,
        replay: 'text',
        words: 200,
        toolCalls: 2,
        hang: true,
      },
    });
  });

  it('merges several blocks, later values winning, and reads a bare key as 1', () => {
    expect(parseDirectives('[sim latency=5] text [SIM latency=7 hang]')).toEqual({ ok: true, directives: { latencyMs: 7, hang: true } });
  });

  it('finds nothing in plain text or in other brackets', () => {
    expect(parseDirectives('Just a question [not sim] [simulate=1]')).toEqual({ ok: true, directives: {} });
  });

  it('rejects unknown keys and malformed values', () => {
    expect(parseDirectives('[sim lateny=5]')).toEqual({ ok: false, message: expect.stringContaining("Unknown simulator directive 'lateny'") });
    expect(parseDirectives('[sim status=abc]')).toEqual({ ok: false, message: expect.stringContaining('non-negative integer') });
    expect(parseDirectives('[sim replay=a/b]')).toEqual({ ok: false, message: expect.stringContaining('expects a word') });
  });
});

describe('stripDirectives', () => {
  it('removes the blocks and keeps the question', () => {
    expect(stripDirectives('  Why? [sim status=500] ')).toBe('Why?');
  });
});
