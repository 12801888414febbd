import type { Bar } from '../../components/BarChart';
import type { SpendRow } from './usage-operations';

export interface Figures {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  amountMicrousd: number;
}

/** The rows' figures added up (amounts are exact integers, so the sum is too). */
export function sumFigures(rows: SpendRow[]): Figures {
  const sum: Figures = { requests: 0, promptTokens: 0, completionTokens: 0, amountMicrousd: 0 };
  for (const row of rows) {
    sum.requests += row.requests;
    sum.promptTokens += row.promptTokens;
    sum.completionTokens += row.completionTokens;
    sum.amountMicrousd += row.amountMicrousd;
  }
  return sum;
}

/** Spend per day over `days` (every day a bar, zero when nothing was spent), oldest first. */
export function spendPerDay(rows: SpendRow[], days: string[]): Bar[] {
  const byDay = new Map(days.map((day) => [day, 0]));
  for (const row of rows) if (row.day && byDay.has(row.day)) byDay.set(row.day, byDay.get(row.day)! + row.amountMicrousd);
  return days.map((day) => ({ label: day, value: byDay.get(day) ?? 0 }));
}

/**
 * Spend per model, largest first. A call without a model (a file upload)
 * or whose "model" is a search backend (`search:brave`, priced under the
 * backend's name) is counted under its endpoint instead (`/v1/search`), so
 * every bar names what was paid for.
 */
export function spendPerModel(rows: SpendRow[]): Bar[] {
  const byModel = new Map<string, number>();
  for (const row of rows) {
    const label = chartLabel(row);
    byModel.set(label, (byModel.get(label) ?? 0) + row.amountMicrousd);
  }
  return [...byModel].map(([label, value]) => ({ label, value })).sort((a, b) => b.value - a.value || a.label.localeCompare(b.label));
}

function chartLabel(row: SpendRow): string {
  if (row.model && !row.model.startsWith('search:')) return row.model;
  return row.endpoint || row.model || 'other';
}

/** The distinct values of a grouping among the rows, sorted. */
export function distinct(rows: SpendRow[], pick: (row: SpendRow) => string | number | null | undefined): string[] {
  const values = new Set<string>();
  for (const row of rows) {
    const value = pick(row);
    if (value !== null && value !== undefined) values.add(String(value));
  }
  return [...values].sort();
}
