import { z } from 'zod';
import { Errors } from '../errors/errors';
import { MAX_SPEND_GROUPS, type SpendGroup } from './spend-groups';
import { resolveSpendRange, type SpendRange } from './spend-range';

const isoDate = z.iso.date();
const isoDateTime = z.iso.datetime({ offset: true });

/** One query parameter as a single string; a repeated parameter is refused rather than guessed at. */
export function singleQueryValue(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw Errors.validation(name, 'must be given once, as a single value.');
  return value;
}

/** `group_by=model,day`: 1 to 3 distinct values out of `allowed`; an unknown one is named in the 400. */
export function parseGroupBy(raw: string | undefined, allowed: readonly SpendGroup[]): SpendGroup[] {
  const list = (raw ?? '').split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  if (list.length === 0) throw Errors.validation('group_by', `is required: a comma list of 1 to ${MAX_SPEND_GROUPS} of ${allowed.join(', ')}.`);
  if (list.length > MAX_SPEND_GROUPS) throw Errors.validation('group_by', `names ${list.length} groupings; at most ${MAX_SPEND_GROUPS} are allowed.`);
  for (const g of list) {
    if (!allowed.includes(g as SpendGroup)) throw Errors.validation('group_by', `has the unknown value "${g}"; use ${allowed.join(', ')}.`);
  }
  if (new Set(list).size !== list.length) throw Errors.validation('group_by', 'names a grouping twice.');
  return list as SpendGroup[];
}

/** `from` / `to`: an ISO date (UTC midnight) or an ISO datetime with its offset. */
export function parseInstant(raw: string | undefined, name: 'from' | 'to'): Date | undefined {
  if (raw === undefined) return undefined;
  if (isoDate.safeParse(raw).success) return new Date(`${raw}T00:00:00Z`);
  if (isoDateTime.safeParse(raw).success) return new Date(raw);
  throw Errors.validation(name, `"${raw}" is not an ISO date (2026-11-01) or datetime with offset (2026-11-01T00:00:00Z).`);
}

/** The `group_by`, `from` and `to` of a spend totals request. */
export function parseSpendTotalsQuery(query: Record<string, unknown>, allowed: readonly SpendGroup[]): { groupBy: SpendGroup[]; range: SpendRange } {
  const groupBy = parseGroupBy(singleQueryValue(query, 'group_by'), allowed);
  const from = parseInstant(singleQueryValue(query, 'from'), 'from');
  const to = parseInstant(singleQueryValue(query, 'to'), 'to');
  return { groupBy, range: resolveSpendRange({ from, to }) };
}
