import { dayRange, today } from '../../lib/utc-day';

/** The Usage page's filters; an empty string is "any". */
export interface UsageFilter {
  model: string;
  endpoint: string;
  /** A UTC date, YYYY-MM-DD. */
  day: string;
  /** `succeeded` (answered below 400) or `failed` (400 and above). */
  status: '' | RequestOutcome;
}

export type RequestOutcome = 'succeeded' | 'failed';

export const OUTCOMES: RequestOutcome[] = ['succeeded', 'failed'];

export const ANY: UsageFilter = { model: '', endpoint: '', day: '', status: '' };

/** Days the page covers when no day is picked: today (UTC) and the 29 before it. */
export const DEFAULT_DAYS = 30;

/**
 * The time range the whole page covers, records, totals and charts alike:
 * the day picked, or the last 30 UTC days.
 */
export function filterRange(filter: UsageFilter): { from: string; to: string } {
  if (filter.day) {
    const { since, until } = dayRange(filter.day);
    return { from: since, to: until };
  }
  const end = dayRange(today()).until;
  return { from: new Date(Date.parse(end) - DEFAULT_DAYS * 24 * 60 * 60 * 1000).toISOString(), to: end };
}

/** A spend totals row's groupings, as far as they were asked for. */
export interface Grouped {
  model?: string | null;
  endpoint?: string | null;
  status?: number | null;
}

/**
 * Whether a spend totals row falls within the filters; a filter on a
 * grouping the rows lack is `skip`ped by the caller. A row's status is the
 * HTTP status; the outcome filter reads it as the gateway does (below 400:
 * succeeded).
 */
export function rowMatches(row: Grouped, filter: UsageFilter, skip: ReadonlyArray<keyof Grouped> = []): boolean {
  if (filter.model && !skip.includes('model') && row.model !== filter.model) return false;
  if (filter.endpoint && !skip.includes('endpoint') && row.endpoint !== filter.endpoint) return false;
  if (filter.status && !skip.includes('status') && outcomeOf(row.status) !== filter.status) return false;
  return true;
}

function outcomeOf(status: number | null | undefined): RequestOutcome | undefined {
  if (status === null || status === undefined) return undefined;
  return status < 400 ? 'succeeded' : 'failed';
}
