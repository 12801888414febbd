import { parseRetryAfter } from './upstream-error';

/** parseRetryAfter of upstream-error.ts: the Retry-After header in seconds. */
describe('parseRetryAfter', () => {
  const now = Date.UTC(2025, 0, 1, 0, 0, 0);

  it.each<[string | string[] | undefined, number | undefined]>([
    ['30', 30],
    ['0', 0],
    ['1.2', 2],
    [' 5 ', 5],
    [['7', '9'], 7],
    [undefined, undefined],
    ['', undefined],
  ])('delay seconds %j: %s', (value, seconds) => {
    expect(parseRetryAfter(value, now)).toBe(seconds);
  });

  it.each(['-3', '-1', '-0.5', '-120'])('a negative delay %j is no delay at all, not a date', (value) => {
    // Date.parse would read "-3" as March 2001, a date long past: 0 seconds.
    expect(Number.isNaN(Date.parse(value))).toBe(false);
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });

  it.each([
    ['IMF-fixdate', 'Wed, 01 Jan 2025 00:00:10 GMT', 10],
    ['IMF-fixdate, minutes away', 'Wed, 01 Jan 2025 00:02:00 GMT', 120],
    ['obsolete RFC 850 form', 'Wednesday, 01-Jan-25 00:01:00 GMT', 60],
    ['obsolete asctime form, which is GMT', 'Wed Jan  1 00:00:30 2025', 30],
  ])('an HTTP date in the future (%s) is the seconds until it', (_, value, seconds) => {
    expect(parseRetryAfter(value, now)).toBe(seconds);
    // Half a second earlier, the wait is rounded up to the next whole second.
    expect(parseRetryAfter(value, now - 500)).toBe(seconds + 1);
  });

  it('an HTTP date already past means now: 0 seconds', () => {
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:59:00 GMT', now)).toBe(0);
  });

  it.each(['soon', '1 2', '3s', '0x10', '1e3', 'Infinity', 'NaN', '2025-01-01T00:00:10Z', 'Jan 1 2025', 'Wed, 01 Jan 2025 00:00:10', 'Wed, 01 Foo 2025 00:00:10 GMT'])(
    'garbage %j is undefined, even what Date.parse or Number would read',
    (value) => {
      expect(parseRetryAfter(value, now)).toBeUndefined();
    },
  );
});
