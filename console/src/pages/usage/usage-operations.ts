import { filterRange, type UsageFilter } from './usage-filter';
import type { RecordFilterArgs } from './use-record-filter-args';

/** What the Usage page reads: a page of records, and the spend totals behind the figures and charts. */

export const RECORDS_PAGE_SIZE = 25;

export interface UsageRecordRow {
  id: string;
  createdAt: number;
  model: string;
  endpoint: string;
  billing: { amountMicrousd: number; state: string };
  routing: { statusCode: number; totalDurationMs: number } | null;
  usage: { promptTokens: number; completionTokens: number };
}

export interface RecordsPage {
  usageRecords: { edges: Array<{ node: UsageRecordRow }>; pageInfo: { endCursor: string | null; hasNextPage: boolean } };
}

/**
 * The records query for the filters: `model`, `since` and `until` always;
 * `endpoint` and `status` (the outcome, `SUCCEEDED` or `FAILED`) only when
 * set, and declared with the type the server gives them (see
 * use-record-filter-args.ts).
 */
export function recordsOperation(filter: UsageFilter, args: RecordFilterArgs, after: string | null): { query: string; variables: Record<string, unknown> } {
  const { from, to } = filterRange(filter);
  const declared = ['$first: Int', '$after: String', '$model: String', '$since: DateTimeISO', '$until: DateTimeISO'];
  const passed = ['first: $first', 'after: $after', 'model: $model', 'since: $since', 'until: $until'];
  const variables: Record<string, unknown> = { first: RECORDS_PAGE_SIZE, after, model: filter.model || null, since: from, until: to };
  if (filter.endpoint && args.endpoint) {
    declared.push(`$endpoint: ${args.endpoint}`);
    passed.push('endpoint: $endpoint');
    variables.endpoint = filter.endpoint;
  }
  if (filter.status && args.status) {
    declared.push(`$status: ${args.status}`);
    passed.push('status: $status');
    variables.status = filter.status.toUpperCase();
  }
  const query = `query ConsoleUsageRecords(${declared.join(', ')}) {
  usageRecords(${passed.join(', ')}) {
    edges { node { id createdAt model endpoint billing { amountMicrousd state } routing { statusCode totalDurationMs } usage { promptTokens completionTokens } } }
    pageInfo { endCursor hasNextPage }
  }
}`;
  return { query, variables };
}

export interface SpendRow {
  day?: string | null;
  model?: string | null;
  endpoint?: string | null;
  status?: number | null;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  amountMicrousd: number;
}

export interface SpendAnswer {
  /** Grouped by model, endpoint and status: the totals under every filter but the day (which is the range). */
  byGroup: { data: SpendRow[] };
  /** Grouped by day, model and endpoint: the charts (spend totals take at most three groupings). */
  byDay: { data: SpendRow[] };
}

export const SPEND_QUERY = `query ConsoleSpend($from: DateTimeISO, $to: DateTimeISO) {
  byGroup: spendTotals(groupBy: [MODEL, ENDPOINT, STATUS], from: $from, to: $to) {
    data { model endpoint status requests promptTokens completionTokens amountMicrousd }
  }
  byDay: spendTotals(groupBy: [DAY, MODEL, ENDPOINT], from: $from, to: $to) {
    data { day model endpoint requests promptTokens completionTokens amountMicrousd }
  }
}`;
