import { useState } from 'preact/hooks';
import { CursorPager } from '../../components/CursorPager';
import { ProblemNotice } from '../../components/ProblemNotice';
import { GRAPHQL_PATH } from '../../lib/graphql-request';
import { useCursorPages } from '../../lib/use-cursor-pages';
import { useGraphqlQuery } from '../../lib/use-graphql-query';
import { SpendCharts } from './SpendCharts';
import { distinct, sumFigures } from './spend-sums';
import { UsageFilters } from './UsageFilters';
import { UsageTable } from './UsageTable';
import { UsageTotals } from './UsageTotals';
import { useRecordFilterArgs } from './use-record-filter-args';
import { ANY, DEFAULT_DAYS, filterRange, rowMatches, type UsageFilter } from './usage-filter';
import { recordsOperation, SPEND_QUERY, type RecordsPage, type SpendAnswer } from './usage-operations';

/**
 * Usage: the key's usage records under the filters (model, endpoint, UTC
 * day, status), their totals and spend charts, all over one range (the
 * day picked, or the last 30 days). Records come from `usageRecords`,
 * totals and charts from `spendTotals`.
 */
export function UsagePage({ apiKey }: { apiKey: string }) {
  const endpoint = { path: GRAPHQL_PATH, secret: apiKey };
  const [filter, setFilter] = useState<UsageFilter>(ANY);
  const pages = useCursorPages();
  const args = useRecordFilterArgs(apiKey);
  const range = filterRange(filter);
  const spend = useGraphqlQuery<SpendAnswer>(endpoint, SPEND_QUERY, range);
  const records = recordsOperation(filter, args ?? {}, pages.after);
  const page = useGraphqlQuery<RecordsPage>(args ? endpoint : null, records.query, records.variables);

  const groups = spend.data?.byGroup.data ?? [];
  const figures = spend.data ? sumFigures(groups.filter((row) => rowMatches(row, filter))) : undefined;
  const choices = { models: distinct(groups, (r) => r.model), endpoints: distinct(groups, (r) => r.endpoint) };
  return (
    <section aria-labelledby="usage-title">
      <header class="page-header">
        <h1 id="usage-title">Usage</h1>
      </header>
      <UsageFilters
        filter={filter}
        choices={choices}
        args={args}
        onChange={(next) => {
          setFilter(next);
          pages.reset();
        }}
      />
      <ProblemNotice problem={spend.problem} />
      <UsageTotals figures={figures} range={filter.day ? `on ${filter.day} (UTC)` : `last ${DEFAULT_DAYS} days`} />
      <SpendCharts rows={spend.data?.byDay.data ?? []} filter={filter} />
      <section aria-labelledby="records-title">
        <h2 id="records-title">Records</h2>
        <ProblemNotice problem={page.problem} />
        {page.data && <UsageTable records={page.data.usageRecords.edges.map((e) => e.node)} />}
        <CursorPager pages={pages} pageInfo={page.data?.usageRecords.pageInfo} label="Usage records" />
      </section>
    </section>
  );
}
