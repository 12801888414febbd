import type { Database } from '../db/database';
import type { UsageRecordRow } from './usage-record';
import { RECORD_AS_CHANGE, rollupUpserts } from './usage-rollups';

/**
 * Column by column: the SQL type and the row's value under the column's
 * name. The rows go to the database as one JSON array, a single parameter
 * of one fixed statement (`json_to_recordset`), so any number of rows costs
 * one `JSON.stringify` on the gateway (no per-value escaping into PostgreSQL
 * arrays) and Prisma's query compiler stays off the hot path. JSON columns
 * travel as nested JSON; bigints as strings, which PostgreSQL reads exactly.
 * `ON CONFLICT DO NOTHING` makes replays idempotent.
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
  ['measurement', 'jsonb', (r) => r.measurement],
  ['dimensions', 'jsonb', (r) => r.dimensions],
  ['currency', 'text', (r) => r.currency],
  ['amount_microusd', 'bigint', (r) => r.amountMicrousd.toString()],
  ['pricing_version', 'int', (r) => r.pricingVersion],
  ['line_items', 'jsonb', (r) => r.lineItems],
  ['routing', 'jsonb', (r) => r.routing],
  ['provider_usage', 'jsonb', (r) => r.providerUsage],
  ['log_id', 'text', (r) => r.logId],
  ['served_by', 'jsonb', (r) => r.servedBy],
  ['error_code', 'text', (r) => r.errorCode],
  ['billing_state', 'text', (r) => r.billingState],
  ['task_id', 'text', (r) => r.taskId],
  ['held_microusd', 'bigint', (r) => r.heldMicrousd?.toString() ?? null],
  ['hold_id', 'bigint', (r) => r.holdId?.toString() ?? null],
  ['parent_key_id', 'text', (r) => r.parentKeyId],
  // Absent from rows spooled before these columns existed: NULL.
  ['search', 'jsonb', (r) => r.search ?? null],
  ['decision', 'jsonb', (r) => r.decision ?? null],
  ['mcp', 'jsonb', (r) => r.mcp ?? null],
];

const COLUMN_LIST = COLUMNS.map(([c]) => `"${c}"`).join(', ');

const INSERT_SQL =
  `INSERT INTO "usage_records" (${COLUMN_LIST}) ` +
  `SELECT ${COLUMN_LIST} FROM json_to_recordset($1::json) AS r(${COLUMNS.map(([c, type]) => `"${c}" ${type}`).join(', ')}) ` +
  'ON CONFLICT ("id") DO NOTHING';

/**
 * The records this statement really inserted (a replayed record that was
 * already there is not among them), added to the roll-ups by the same
 * statement: a record and its share of the spend totals commit together or
 * not at all, and a replay never counts a record twice.
 */
const INSERTED =
  `"inserted" AS (${INSERT_SQL} RETURNING "id", "key_id", "account_id", "created_at", "model", "endpoint", "status_code", ` +
  '"prompt_tokens", "completion_tokens", "amount_microusd", "hold_id", "billing_state"), ' +
  rollupUpserts(`(SELECT ${RECORD_AS_CHANGE} FROM "inserted" r)`);

const INSERT_WITH_ROLLUPS_SQL = `WITH ${INSERTED} SELECT count(*) AS "inserted" FROM "inserted"`;

/**
 * The same, for a batch with records of accounts under spend control: the
 * holds of the records it inserted are ended in the same statement too
 * (settled at the record's charge, or released when the call was refused or
 * failed uncharged), so a record and its ledger entry commit together or
 * not at all, and a replayed record never ends its hold twice. A task's held
 * record keeps its hold until the task ends (billing/task-billing.ts).
 */
const INSERT_AND_END_HOLDS_SQL =
  `WITH ${INSERTED} ` +
  `SELECT gateway_end_holds(coalesce(jsonb_agg(jsonb_build_object('hold_id', "hold_id", 'request_id', "id", ` +
  `'charged', CASE WHEN "amount_microusd" > 0 OR "status_code" < 400 THEN "amount_microusd" END)), '[]'::jsonb)) AS "ended" ` +
  `FROM "inserted" WHERE "hold_id" IS NOT NULL AND "billing_state" <> 'held'`;

export async function insertUsageRecords(db: Pick<Database, 'query'>, rows: UsageRecordRow[]): Promise<void> {
  const sql = rows.some((r) => r.holdId !== null && r.billingState !== 'held') ? INSERT_AND_END_HOLDS_SQL : INSERT_WITH_ROLLUPS_SQL;
  await db.query(sql, [JSON.stringify(rows.map(toColumns))]);
}

function toColumns(row: UsageRecordRow): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [column, , value] of COLUMNS) out[column] = value(row);
  return out;
}
