import type { VideoCapabilities } from '../config/gateway-config-schema';
import { firstPollAt, nextPollAt } from './poll-schedule';

type Polling = VideoCapabilities['polling'];
const defaults: Polling = { first_poll_after_ms: 30_000, interval_ms: 8_000, max_interval_ms: 10_000, timeout_ms: 20 * 60_000 };
const fast: Polling = { first_poll_after_ms: 0, interval_ms: 1_000, max_interval_ms: 5_000, timeout_ms: 60_000 };
const T = 1_700_000_000_000;

describe('poll schedule', () => {
  it.each([
    [defaults, T + 30_000],
    [fast, T],
  ])('the first poll comes first_poll_after_ms after now (%#)', (polling, expected) => {
    const at = firstPollAt(polling, T);
    expect(at).toBeInstanceOf(Date);
    expect(at.getTime()).toBe(expected);
  });

  it.each([
    // [poll count, interval after it] with interval 1000, growth 1.25, max 5000
    [0, 1_000],
    [1, 1_000],
    [2, 1_250],
    [3, 1_563],
    [4, 1_953],
    [5, 2_441],
    [6, 3_052],
    [7, 3_815],
    [8, 4_768],
    [9, 5_000],
    [50, 5_000],
  ])('backs off by 1.25 a poll up to the max: poll %d waits %d ms', (count, interval) => {
    expect(nextPollAt(fast, count, T, T).getTime() - T).toBe(interval);
  });

  it.each([
    [1, 8_000],
    [2, 10_000],
    [3, 10_000],
  ])('with the defaults, poll %d waits %d ms (8 to 10 seconds)', (count, interval) => {
    expect(nextPollAt(defaults, count, T, T).getTime() - T).toBe(interval);
  });

  it.each([
    // [why, dueAt, now, retry-after seconds, next poll]
    ['on time: due time + interval', T, T, undefined, T + 8_000],
    ['a poller 3 s late does not stretch the interval', T, T + 3_000, undefined, T + 8_000],
    ['exactly half an interval late: both rules agree', T, T + 4_000, undefined, T + 8_000],
    ['far behind: never sooner than half an interval from now', T, T + 20_000, undefined, T + 24_000],
    ['Retry-After pushes the poll later, counted from now', T, T + 3_000, 30, T + 33_000],
    ['a Retry-After shorter than the interval changes nothing', T, T, 5, T + 8_000],
    ['Retry-After 0 changes nothing', T, T, 0, T + 8_000],
    ['Retry-After beats the half-interval floor', T, T + 20_000, 6, T + 26_000],
  ])('%s', (_, dueAt, now, retryAfter, expected) => {
    expect(nextPollAt(defaults, 1, dueAt, now, retryAfter).getTime()).toBe(expected);
  });

  it('a grown interval also sets the half-interval floor', () => {
    // Poll 9 waits 5000 ms; half of it from a late now is 2500 ms.
    expect(nextPollAt(fast, 9, T, T + 10_000).getTime()).toBe(T + 12_500);
  });
});
