import { BarChart } from '../../components/BarChart';
import { formatMicrousd } from '../../lib/format';
import { daysEndingWith } from '../../lib/utc-day';
import { spendPerDay, spendPerModel } from './spend-sums';
import { DEFAULT_DAYS, filterRange, rowMatches, type UsageFilter } from './usage-filter';
import type { SpendRow } from './usage-operations';

/**
 * Spend per UTC day and per model (or endpoint, for calls without a model)
 * over the page's range, under the model and endpoint filters. Spend totals take at most three groupings (day,
 * model, endpoint here), so the status filter does not narrow the charts;
 * the caption says so when it is set.
 */
export function SpendCharts({ rows, filter }: { rows: SpendRow[]; filter: UsageFilter }) {
  const matching = rows.filter((row) => rowMatches(row, filter, ['status']));
  const lastDay = new Date(Date.parse(filterRange(filter).to) - 1).toISOString().slice(0, 10);
  const days = daysEndingWith(lastDay, filter.day ? 1 : DEFAULT_DAYS);
  return (
    <section class="charts" aria-labelledby="charts-title">
      <h2 id="charts-title">Spend</h2>
      {filter.status && <p class="muted small">The charts show every status: spend totals group by at most three fields (here day, model and endpoint).</p>}
      <div class="chart-grid">
        <BarChart title="Spend per day (UTC)" layout="columns" bars={spendPerDay(matching, days)} format={formatMicrousd} />
        <BarChart title="Spend per model or endpoint" layout="rows" bars={spendPerModel(matching)} format={formatMicrousd} />
      </div>
    </section>
  );
}
