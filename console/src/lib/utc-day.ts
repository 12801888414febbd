/**
 * UTC days, as the gateway counts them (spend totals group by the UTC date):
 * `YYYY-MM-DD` strings and the half-open range of instants each covers.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** The instants of one UTC day: `since` inclusive, `until` exclusive, as ISO strings. */
export function dayRange(day: string): { since: string; until: string } {
  const start = Date.parse(`${day}T00:00:00.000Z`);
  return { since: new Date(start).toISOString(), until: new Date(start + DAY_MS).toISOString() };
}

/** Whether `value` is a real `YYYY-MM-DD` date. */
export function isDay(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
}

/** Today's UTC date. */
export function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** The `count` UTC days ending with `last`, oldest first. */
export function daysEndingWith(last: string, count: number): string[] {
  const end = Date.parse(`${last}T00:00:00.000Z`);
  return Array.from({ length: count }, (_, i) => new Date(end - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}
