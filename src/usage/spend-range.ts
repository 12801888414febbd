import { Errors } from '../errors/errors';

export const DEFAULT_SPEND_RANGE_DAYS = 30;
export const MAX_SPEND_RANGE_DAYS = 366;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A half-open time range: `from` inclusive, `to` exclusive. */
export interface SpendRange {
  from: Date;
  to: Date;
}

/**
 * The range spend totals cover: by default the last 30 days up to now. A
 * range is bounded (366 days) so one dashboard query cannot scan a key's
 * whole history; a longer view is several queries.
 */
export function resolveSpendRange(asked: { from?: Date; to?: Date }, now: Date = new Date()): SpendRange {
  const to = asked.to ?? now;
  const from = asked.from ?? new Date(to.getTime() - DEFAULT_SPEND_RANGE_DAYS * DAY_MS);
  if (to.getTime() <= from.getTime()) throw Errors.validation('to', `must be after "from" (${from.toISOString()}); "to" is exclusive.`);
  const days = (to.getTime() - from.getTime()) / DAY_MS;
  if (days > MAX_SPEND_RANGE_DAYS) {
    throw Errors.validation('to', `is ${Math.ceil(days)} days after "from"; a range may span at most ${MAX_SPEND_RANGE_DAYS} days. Ask for a shorter range, or several.`);
  }
  return { from, to };
}
