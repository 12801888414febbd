import type { Database } from '../db/database';
import type { UsageRecordRow } from './usage-record';
import { RECORD_AS_CHANGE, rollupUpserts } from './usage-rollups';
import { splitUsageRecordParts, type UsageRecordParts } from './usage-record-figures';
import type { UsageShapes } from './usage-shapes';

/** A row ready for its columns: the record and its JSON parts as a shape and figures. */
interface EncodedRow {
  row: UsageRecordRow;
  shapeId: number;
  figures: unknown[];
}

/**
 * Column by column: the SQL type and the row's value under the column's
 * name. The rows go to the database as one JSON array, a single parameter
 * of one fixed statement (`json_to_recordset`), so any number of rows costs
 * one `JSON.stringify` on the gateway (no per-value escaping into PostgreSQL
 * arrays) and Prisma's query compiler stays off the hot path. The figures
 * travel as nested JSON (kept as sent, in a `json` column); bigints as
 * strings, which PostgreSQL reads exactly. `ON CONFLICT DO NOTHING` on the
 * key (the request id and its time, which the record's ticket fixed when it
 * opened) makes replays idempotent.
 */
const COLUMNS: Array<[column: string, type: string, value: (r: EncodedRow) => unknown]> = [
  ['created_at', 'timestamptz', ({ row }) => row.createdAt.toISOString()],
  ['amount_microusd', 'bigint', ({ row }) => row.amountMicrousd.toString()],
  ['held_microusd', 'bigint', ({ row }) => row.heldMicrousd?.toString() ?? null],
  ['hold_id', 'bigint', ({ row }) => row.holdId?.toString() ?? null],
  ['status_code', 'int', ({ row }) => row.statusCode],
  ['prompt_tokens', 'int', ({ row }) => row.promptTokens],
  ['completion_tokens', 'int', ({ row }) => row.completionTokens],
  ['pricing_version', 'int', ({ row }) => row.pricingVersion],
  ['shape_id', 'int', (r) => r.shapeId],
  ['id', 'text', ({ row }) => row.id],
  ['key_id', 'text', ({ row }) => row.keyId],
  ['account_id', 'text', ({ row }) => row.accountId],
  ['model', 'text', ({ row }) => row.model],
  ['endpoint', 'text', ({ row }) => row.endpoint],
  ['billing_state', 'text', ({ row }) => row.billingState],
  ['task_id', 'text', ({ row }) => row.taskId],
  ['error_code', 'text', ({ row }) => row.errorCode],
  ['parent_key_id', 'text', ({ row }) => row.parentKeyId],
  ['figures', 'json', (r) => r.figures],
];

const COLUMN_LIST = COLUMNS.map(([c]) => `"${c}"`).join(', ');

const INSERT_SQL =
  `INSERT INTO "usage_records" (${COLUMN_LIST}) ` +
  `SELECT ${COLUMN_LIST} FROM json_to_recordset($1::json) AS r(${COLUMNS.map(([c, type]) => `"${c}" ${type}`).join(', ')}) ` +
  'ON CONFLICT ("id", "created_at") DO NOTHING';

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
 * not at all, and a replayed record (not inserted again) never ends its
 * hold twice. A task's held record keeps its hold until the task ends
 * (billing/task-billing.ts).
 */
const INSERT_AND_END_HOLDS_SQL =
  `WITH ${INSERTED} ` +
  `SELECT gateway_end_holds(coalesce(jsonb_agg(jsonb_build_object('hold_id', "hold_id", 'request_id', "id", ` +
  `'charged', CASE WHEN "amount_microusd" > 0 OR "status_code" < 400 THEN "amount_microusd" END)), '[]'::jsonb)) AS "ended" ` +
  `FROM "inserted" WHERE "hold_id" IS NOT NULL AND "billing_state" <> 'held'`;

/** The three statements, each named: prepared once per connection (database.ts). */
const RECORDS_ALONE = { name: 'usage_records_insert', sql: INSERT_SQL };
const WITH_ROLLUPS = { name: 'usage_records_insert_rollups', sql: INSERT_WITH_ROLLUPS_SQL };
const WITH_ROLLUPS_AND_HOLD_ENDS = { name: 'usage_records_insert_rollups_end_holds', sql: INSERT_AND_END_HOLDS_SQL };

/**
 * Inserts a batch of records in one statement, with their roll-ups and the
 * ends of their holds. `rollups: false` writes the records alone, as a
 * gateway from before the roll-ups did (what `gateway rollups rebuild`
 * repairs); only tests of that repair ask for it.
 */
export async function insertUsageRecords(db: Pick<Database, 'query'>, shapes: UsageShapes, rows: UsageRecordRow[], options: { rollups?: boolean } = {}): Promise<void> {
  const split = rows.map((row) => splitUsageRecordParts(usageRecordParts(row)));
  const shapeIds = await shapes.idsOf(split.map((s) => s.skeleton));
  const encoded = rows.map((row, i): EncodedRow => ({ row, shapeId: shapeIds[i]!, figures: split[i]!.figures }));
  const statement = options.rollups === false ? RECORDS_ALONE : rows.some((r) => r.holdId !== null && r.billingState !== 'held') ? WITH_ROLLUPS_AND_HOLD_ENDS : WITH_ROLLUPS;
  await db.query(statement.sql, [JSON.stringify(encoded.map(toColumns))], { name: statement.name });
}

/** What of a record its shape and figures keep. Rows spooled before searches, decisions and MCP calls were recorded have none of them. */
function usageRecordParts(row: UsageRecordRow): UsageRecordParts {
  return {
    measurement: row.measurement,
    dimensions: row.dimensions,
    line_items: row.lineItems,
    routing: row.routing,
    served_by: row.servedBy,
    provider_usage: row.providerUsage,
    search: row.search ?? null,
    decision: row.decision ?? null,
    mcp: row.mcp ?? null,
  };
}

function toColumns(encoded: EncodedRow): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [column, , value] of COLUMNS) out[column] = value(encoded);
  return out;
}
