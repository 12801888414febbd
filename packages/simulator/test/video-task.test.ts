import { parseDirectives } from '../src/directives';
import { VideoTaskStore, planVideoTask, startVideoTask, submissionDirectives, takePollFailure, videoTaskPhase } from '../src/video-task';

function plan(text: string, defaultGenerationMs = 1000) {
  const parsed = parseDirectives(text);
  if (!parsed.ok) throw new Error(parsed.message);
  const planned = planVideoTask(parsed.directives, defaultGenerationMs);
  if (!planned.ok) throw new Error(planned.message);
  return planned.plan;
}

describe('video directives', () => {
  it('reads the video keys, bare flags as 1', () => {
    expect(parseDirectives('[sim gen_ms=250 moderated fail=1 expire=0 never poll_fail_times=2]')).toEqual({
      ok: true,
      directives: { generationMs: 250, moderated: true, fail: true, expire: false, never: true, pollFailTimes: 2 },
    });
    expect(parseDirectives('[sim gen_ms=fast]')).toEqual({ ok: false, message: expect.stringContaining("'gen_ms' expects a non-negative integer") });
  });

  it('refuses fates that exclude each other', () => {
    const parsed = parseDirectives('[sim fail expire]');
    expect(parsed.ok && planVideoTask(parsed.directives, 10)).toEqual({ ok: false, message: "Simulator directives 'fail' and 'expire' exclude each other." });
  });

  it('keeps status and retry_after away from the submission when they are for the polls', () => {
    const parsed = parseDirectives('[sim status=429 retry_after=2 poll_fail_times=1 latency=5]');
    expect(parsed.ok && submissionDirectives(parsed.directives)).toEqual({ pollFailTimes: 1, latencyMs: 5 });
    const submitFailure = parseDirectives('[sim status=503]');
    expect(submitFailure.ok && submissionDirectives(submitFailure.directives)).toEqual({ status: 503 });
  });
});

describe('the video task clock', () => {
  it('runs with rising progress, then ends as planned', () => {
    const task = startVideoTask(plan('x'), 0);
    expect(videoTaskPhase(task, 0)).toEqual({ phase: 'running', progress: 0 });
    expect(videoTaskPhase(task, 420)).toEqual({ phase: 'running', progress: 42 });
    expect(videoTaskPhase(task, 1000)).toEqual({ phase: 'done' });
    expect(videoTaskPhase(startVideoTask(plan('[sim fail]'), 0), 1000)).toEqual({ phase: 'failed' });
    expect(videoTaskPhase(startVideoTask(plan('[sim expire gen_ms=0]'), 0), 0)).toEqual({ phase: 'expired' });
  });

  it('never ends a task that is to run forever, and never reports it at 100', () => {
    const task = startVideoTask(plan('[sim never gen_ms=10]'), 0);
    expect(videoTaskPhase(task, 1_000_000)).toEqual({ phase: 'running', progress: 99 });
  });

  it('fails the first N polls with the planned status, then lets them through', () => {
    const task = startVideoTask(plan('[sim status=429 retry_after=3 poll_fail_times=2]'), 0);
    expect(takePollFailure(task)).toEqual({ status: 429, retryAfterSeconds: 3, code: undefined });
    expect(takePollFailure(task)).toMatchObject({ status: 429 });
    expect(takePollFailure(task)).toBeUndefined();
    expect(takePollFailure(startVideoTask(plan('[sim poll_fail_times=1]'), 0))).toMatchObject({ status: 500 });
  });
});

describe('VideoTaskStore', () => {
  it('forgets the oldest task past its capacity', () => {
    const store = new VideoTaskStore<number>(2);
    store.add('a', 1);
    store.add('b', 2);
    store.add('c', 3);
    expect([store.get('a'), store.get('b'), store.get('c')]).toEqual([undefined, 2, 3]);
    expect(store.delete('b')).toBe(true);
    expect(store.delete('b')).toBe(false);
  });
});
