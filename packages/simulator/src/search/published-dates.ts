/**
 * Publication dates of fake results: the window a search's time filter
 * allows, and the ways the protocols write a date. Dates are relative to
 * the clock, as a real engine's are, so that a gateway comparing them with
 * its own time range sees them inside it; which point of the window a
 * result gets is still a function of the query.
 */

/** The time filters every protocol's own values map to. */
export type TimeRange = 'day' | 'week' | 'month' | 'year';

export interface PublishedWindow {
  from: Date;
  to: Date;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const RANGE_MS: { [range in TimeRange]: number } = { day: DAY_MS, week: 7 * DAY_MS, month: 30 * DAY_MS, year: 365 * DAY_MS };

/** The last day, week, month or year before `now`. */
export function windowForRange(range: TimeRange, now: Date): PublishedWindow {
  return { from: new Date(now.getTime() - RANGE_MS[range]), to: now };
}

/** The last `days` days before `now`: the default reach of dated results. */
export function lastDays(days: number, now: Date): PublishedWindow {
  return { from: new Date(now.getTime() - days * DAY_MS), to: now };
}

/** A point of the window, `fraction` (in [0, 1)) of the way back from its end, to the whole second. */
export function dateInWindow(window: PublishedWindow, fraction: number): Date {
  const span = Math.max(0, window.to.getTime() - window.from.getTime());
  return new Date(Math.floor((window.to.getTime() - fraction * span) / 1000) * 1000);
}

const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const LONG_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * How Google (Serper: "2 hours ago", "Mar 3, 2026") and Brave ("2 days
 * ago", "March 3, 2026") write a date: relative within the week, the
 * calendar date before that.
 */
export function relativeAge(date: Date, now: Date, months: 'short' | 'long'): string {
  const elapsed = Math.max(0, now.getTime() - date.getTime());
  if (elapsed < HOUR_MS) return plural(Math.max(1, Math.floor(elapsed / 60_000)), 'minute');
  if (elapsed < DAY_MS) return plural(Math.floor(elapsed / HOUR_MS), 'hour');
  if (elapsed < 7 * DAY_MS) return plural(Math.floor(elapsed / DAY_MS), 'day');
  const month = (months === 'short' ? SHORT_MONTHS : LONG_MONTHS)[date.getUTCMonth()];
  return `${month} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

/** `2026-03-03T10:15:00`: ISO 8601 without fraction or zone, as Brave's `page_age` and SearXNG's `publishedDate` are. */
export function isoSeconds(date: Date): string {
  return date.toISOString().slice(0, 19);
}

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
}
