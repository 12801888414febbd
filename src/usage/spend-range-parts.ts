import type { SpendRange } from './spend-range';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * A spend range cut where roll-ups can answer it: the whole UTC days in it
 * from daily roll-ups, the whole UTC hours left at its ends from hourly
 * roll-ups (when there are some for what is asked), and only what is left
 * (less than an hour at each end, or less than a day without hourly
 * roll-ups) from the usage records themselves. The parts are half-open,
 * disjoint, and cover the range exactly, so their sums add up to the
 * records' sums over the range.
 */
export interface SpendRangeParts {
  days: SpendRange | null;
  hours: SpendRange[];
  records: SpendRange[];
}

export function spendRangeParts(range: SpendRange, withHours: boolean): SpendRangeParts {
  const from = range.from.getTime();
  const to = range.to.getTime();
  const firstDay = ceilTo(from, DAY_MS);
  const endDay = floorTo(to, DAY_MS);
  const wholeDays = firstDay < endDay;
  const ends: Array<[number, number]> = wholeDays ? [[from, firstDay], [endDay, to]] : [[from, to]];
  const parts: SpendRangeParts = { days: wholeDays ? span(firstDay, endDay) : null, hours: [], records: [] };
  for (const [start, end] of ends.filter(([start, end]) => start < end)) {
    const firstHour = ceilTo(start, HOUR_MS);
    const endHour = floorTo(end, HOUR_MS);
    if (!withHours || firstHour >= endHour) {
      parts.records.push(span(start, end));
      continue;
    }
    parts.hours.push(span(firstHour, endHour));
    if (start < firstHour) parts.records.push(span(start, firstHour));
    if (endHour < end) parts.records.push(span(endHour, end));
  }
  return parts;
}

function span(from: number, to: number): SpendRange {
  return { from: new Date(from), to: new Date(to) };
}

function floorTo(ms: number, unit: number): number {
  return Math.floor(ms / unit) * unit;
}

function ceilTo(ms: number, unit: number): number {
  return Math.ceil(ms / unit) * unit;
}
