import type { Database } from '../db/database';
import type { UsageRecordRow } from './usage-record';

/**
 * Column by column: the SQL type and how a row's value is sent. One fixed
 * statement inserts any number of rows (`unnest` of one array per column),
 * so the driver prepares it once and Prisma's query compiler stays off the
 * hot path. `ON CONFLICT DO NOTHING` makes replays idempotent.
 */
const COLUMNS: Array<[column: string, type: string, value: (row: UsageRecordRow) => unknown]> = [
  ['id', 'text', (r) => r.id],
  ['key_id', 'text', (r) => r.keyId],
  ['account_id', 'text', (r) => r.accountId],
  ['created_at', 'timestamptz', (r) => r.createdAt.toISOString()],
  ['model', 'text', (r) => r.model],
  ['endpoint', 'text', (r) => r.endpoint],
  ['status_code', 'int', (r) => r.statusCode],
  ['prompt_tokens', 'int', (r) => r.promptTokens],
  ['completion_tokens', 'int', (r) => r.completionTokens],
  ['total_tokens', 'int', (r) => r.totalTokens],
  ['measurement', 'jsonb', (r) => json(r.measurement)],
  ['dimensions', 'jsonb', (r) => json(r.dimensions)],
  ['currency', 'text', (r) => r.currency],
  ['amount_microusd', 'bigint', (r) => r.amountMicrousd.toString()],
  ['pricing_version', 'int', (r) => r.pricingVersion],
  ['line_items', 'jsonb', (r) => json(r.lineItems)],
  ['routing', 'jsonb', (r) => json(r.routing)],
  ['provider_usage', 'jsonb', (r) => json(r.providerUsage)],
  ['log_id', 'text', (r) => r.logId],
  ['served_by', 'jsonb', (r) => json(r.servedBy)],
  ['error_code', 'text', (r) => r.errorCode],
  ['billing_state', 'text', (r) => r.billingState],
  ['task_id', 'text', (r) => r.taskId],
  ['held_microusd', 'bigint', (r) => r.heldMicrousd?.toString() ?? null],
];

const INSERT_SQL =
  `INSERT INTO "usage_records" (${COLUMNS.map(([c]) => `"${c}"`).join(', ')}) ` +
  `SELECT * FROM unnest(${COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')}) ` +
  'ON CONFLICT ("id") DO NOTHING';

export async function insertUsageRecords(db: Pick<Database, 'query'>, rows: UsageRecordRow[]): Promise<void> {
  const params = COLUMNS.map(([, , value]) => rows.map(value));
  await db.query(INSERT_SQL, params);
}

function json(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}
