import type { VideoCapabilities } from '../config/gateway-config-schema';
import { BUILT_IN_SIMULATOR_VIDEO_GENERATION_MS } from '../providers/built-in-simulator';
import { firstPollAt, nextPollAt, pollScheduleFor } from './poll-schedule';

type Caps = Pick<VideoCapabilities, 'expected_generation_seconds' | 'polling'>;
const caps = (expected: number, polling: Partial<Caps['polling']> = {}): Caps => ({
  expected_generation_seconds: expected,
  polling: { max_interval_ms: 10_000, timeout_ms: 20 * 60_000, ...polling },
});
const real = { simulated: false };
const T = 1_700_000_000_000;

/** The 1.5 s the built-in simulator takes. */
const simulated = pollScheduleFor(caps(90), { simulated: true });
/** sora-2 on its real upstream: 90 s expected. */
const sora = pollScheduleFor(caps(90), real);
/** A schedule every field of which is configured (fixed steps of 2 s). */
const fixed = pollScheduleFor(caps(30, { first_poll_after_ms: 2_000, interval_ms: 2_000, max_interval_ms: 2_000 }), real);

describe('the poll schedule of a route', () => {
  it('starts from the expected time: half of it for the first poll, a tenth for the step', () => {
    expect(sora).toEqual({ expectedMs: 90_000, firstPollMs: 45_000, stepMs: 9_000, maxIntervalMs: 10_000 });
  });

  it('takes the simulator\'s own time on a simulated route, whatever the model expects upstream', () => {
    expect(simulated).toEqual({ expectedMs: BUILT_IN_SIMULATOR_VIDEO_GENERATION_MS, firstPollMs: 750, stepMs: 150, maxIntervalMs: 10_000 });
  });

  it('never steps below 100 ms, nor beyond the longest wait', () => {
    expect(pollScheduleFor(caps(0.2), real).stepMs).toBe(100);
    expect(pollScheduleFor(caps(240), real).stepMs).toBe(10_000);
  });

  it('configured values win over the derived ones', () => {
    expect(fixed).toEqual({ expectedMs: 30_000, firstPollMs: 2_000, stepMs: 2_000, maxIntervalMs: 2_000 });
    expect(pollScheduleFor(caps(90, { first_poll_after_ms: 0 }), real).firstPollMs).toBe(0);
  });

  it('the first poll comes firstPollMs after now', () => {
    expect(firstPollAt(sora, T).getTime()).toBe(T + 45_000);
    expect(firstPollAt(simulated, T).getTime()).toBe(T + 750);
  });
});

describe('the next poll after an answer', () => {
  it('goes to the finish the progress points to', () => {
    // Submitted at T, half done at T + 780 ms: done at T + 1560 ms.
    const next = nextPollAt(simulated, { pollCount: 1, dueAt: T + 750, now: T + 780, startedAt: T, progress: 50 });
    expect(next.getTime()).toBe(T + 1_560);
  });

  it('a 1.5 s simulated generation is polled twice: half done, then done', () => {
    const first = firstPollAt(simulated, T).getTime();
    // Progress as the simulator reports it: the share of its time passed, rounded down.
    const second = nextPollAt(simulated, { pollCount: 1, dueAt: first, now: first, startedAt: T, progress: Math.floor(((first - T) / 1_500) * 100) }).getTime();
    expect(second).toBeGreaterThanOrEqual(T + 1_500);
    expect(second).toBeLessThan(T + 1_600);
  });

  it('without a progress, goes to the expected time while it lies ahead', () => {
    const next = nextPollAt(sora, { pollCount: 1, dueAt: T + 45_000, now: T + 45_000, startedAt: T });
    // 90 s is further than the longest wait: 10 s after the due time.
    expect(next.getTime()).toBe(T + 55_000);
    const soon = nextPollAt(sora, { pollCount: 3, dueAt: T + 85_000, now: T + 85_000, startedAt: T });
    expect(soon.getTime()).toBe(T + 95_000); // the step (9 s x 1.25^2, capped at 10 s) is the floor
  });

  it.each([
    ['a progress of 0 (queued)', 0],
    ['no progress', undefined],
  ])('past the expected time with %s, backs off by the step', (_, progress) => {
    const next = nextPollAt(simulated, { pollCount: 2, dueAt: T + 2_000, now: T + 2_000, startedAt: T, progress });
    expect(next.getTime()).toBe(T + 2_000 + 188); // 150 x 1.25
  });

  it('a task stuck at 99 % is polled ever less often, never in a hot loop', () => {
    let dueAt = T + 750;
    const gaps: number[] = [];
    for (let pollCount = 1; pollCount <= 30; pollCount++) {
      const next = nextPollAt(simulated, { pollCount, dueAt, now: dueAt, startedAt: T, progress: 99 }).getTime();
      gaps.push(next - dueAt);
      dueAt = next;
    }
    for (let i = 1; i < gaps.length; i++) expect(gaps[i]).toBeGreaterThanOrEqual(gaps[i - 1]);
    expect(gaps[gaps.length - 1]).toBe(10_000);
    // 30 polls cover well over a minute: at most a poll every 2 s on average.
    expect(dueAt - T).toBeGreaterThan(60_000);
  });

  it('never waits longer than the longest wait, however far the finish', () => {
    const next = nextPollAt(sora, { pollCount: 1, dueAt: T + 45_000, now: T + 45_000, startedAt: T, progress: 1 });
    expect(next.getTime()).toBe(T + 55_000);
  });

  it('a fixed schedule polls every step, whatever the progress says', () => {
    for (const progress of [undefined, 1, 50, 99]) {
      expect(nextPollAt(fixed, { pollCount: 1, dueAt: T + 2_000, now: T + 2_000, startedAt: T, progress }).getTime()).toBe(T + 4_000);
    }
  });
});

describe('the next poll after a failed poll: the back-off', () => {
  const step = pollScheduleFor(caps(10), real); // step 1000 ms, longest wait 10 s

  it.each([
    // [poll count, wait after it] with step 1000, growth 1.25, longest wait 10 s
    [0, 1_000],
    [1, 1_000],
    [2, 1_250],
    [3, 1_563],
    [4, 1_953],
    [5, 2_441],
    [9, 5_960],
    [12, 10_000],
    [50, 10_000],
  ])('backs off by 1.25 a poll up to the longest wait: poll %d waits %d ms', (pollCount, wait) => {
    expect(nextPollAt(step, { pollCount, dueAt: T, now: T }).getTime() - T).toBe(wait);
  });

  it.each([
    // [why, dueAt, now, retry-after seconds, next poll]
    ['on time: due time + step', T, T, undefined, T + 9_000],
    ['a poller 3 s late does not stretch the step', T, T + 3_000, undefined, T + 9_000],
    ['far behind: never sooner than half a step from now', T, T + 20_000, undefined, T + 24_500],
    ['Retry-After pushes the poll later, counted from now', T, T + 3_000, 30, T + 33_000],
    ['a Retry-After shorter than the step changes nothing', T, T, 5, T + 9_000],
    ['Retry-After 0 changes nothing', T, T, 0, T + 9_000],
    ['Retry-After beats the half-step floor', T, T + 20_000, 6, T + 26_000],
  ])('%s', (_, dueAt, now, retryAfterSeconds, expected) => {
    expect(nextPollAt(sora, { pollCount: 1, dueAt, now, retryAfterSeconds }).getTime()).toBe(expected);
  });

  it('Retry-After also holds after an answer that points sooner', () => {
    expect(nextPollAt(simulated, { pollCount: 1, dueAt: T + 750, now: T + 750, startedAt: T, progress: 50, retryAfterSeconds: 3 }).getTime()).toBe(T + 3_750);
  });
});
