import type { Database } from '../db/database';

/** One invariant, checked over the ledger: whether it holds, and the rows that break it (at most 100). */
export interface ReconcileCheck {
  name: string;
  description: string;
  ok: boolean;
  violations: Record<string, unknown>[];
}

export interface ReconcileReport {
  object: 'reconcile';
  account_id: string | null;
  ok: boolean;
  checks: ReconcileCheck[];
  /** Holds not ended yet (calls and video tasks in flight); not a fault by themselves. */
  open_holds: { count: number; amount_microusd: number; oldest_at: string | null };
  checked_at: string;
}

const MAX_VIOLATIONS = 100;

/**
 * Where the ledger and the usage records begin after partitions were dropped
 * for retention (the end of the newest dropped month of each); null when
 * none was, and every check then reads all of both.
 */
interface Horizons {
  /** The ledger's: sums before it are in the checkpoints. */
  ledger: Date | null;
  /** The later of the ledger's and the usage records': what both still hold. */
  both: Date | null;
}

type CheckParam = 'account' | keyof Horizons;

interface Check {
  name: string;
  description: string;
  /** Returns the offending rows; `$1`, `$2`, … are `params` in order: the account id or NULL for all accounts, and the horizons. */
  sql: string;
  params: CheckParam[];
}

/**
 * Holds placed a day past the horizon: their records (made within the
 * request that placed the hold, whatever the clocks' skew) and everything
 * that ended or followed them were all kept.
 */
const HOLDS_PAST_HORIZON = `SELECT "id" FROM "ledger_entries" WHERE "kind" = 'hold' AND "created_at" >= $2 + interval '1 day'`;

const CHECKS: Check[] = [
  {
    name: 'wallet_balance_is_ledger_sum',
    description: "Every wallet's balance equals the sum of its account's ledger entries (those in partitions dropped for retention by their checkpoints), and its held amount the sum of its open holds.",
    params: ['account'],
    sql: `SELECT w."account_id", w."balance_microusd"::text AS "balance_microusd", (coalesce(l."total", 0) + coalesce(k."total", 0))::text AS "ledger_sum_microusd",
            w."held_microusd"::text AS "held_microusd", coalesce(o."open", 0)::text AS "open_holds_microusd"
          FROM "wallets" w
          LEFT JOIN (SELECT "account_id", sum("amount_microusd") AS "total" FROM "ledger_entries" WHERE $1::text IS NULL OR "account_id" = $1 GROUP BY "account_id") l USING ("account_id")
          LEFT JOIN (SELECT "account_id", sum("amount_microusd") AS "total" FROM "ledger_checkpoints" WHERE $1::text IS NULL OR "account_id" = $1 GROUP BY "account_id") k USING ("account_id")
          LEFT JOIN (SELECT h."account_id", sum(-h."amount_microusd") AS "open" FROM "ledger_entries" h
                     WHERE h."kind" = 'hold' AND ($1::text IS NULL OR h."account_id" = $1)
                       AND NOT EXISTS (SELECT 1 FROM "ledger_entries" e WHERE e."hold_id" = h."id" AND e."kind" IN ('settle', 'release'))
                     GROUP BY h."account_id") o USING ("account_id")
          WHERE ($1::text IS NULL OR w."account_id" = $1)
            AND (w."balance_microusd" <> coalesce(l."total", 0) + coalesce(k."total", 0) OR w."held_microusd" <> coalesce(o."open", 0))`,
  },
  {
    name: 'hold_ended_at_most_once',
    description: 'No hold is settled or released more than once.',
    params: ['account'],
    sql: `SELECT "hold_id"::text AS "hold_id", count(*)::int AS "ends" FROM "ledger_entries"
          WHERE "kind" IN ('settle', 'release') AND ($1::text IS NULL OR "account_id" = $1)
          GROUP BY "hold_id" HAVING count(*) > 1`,
  },
  {
    name: 'written_record_ended_its_hold',
    description: 'Every usage record written with a hold (other than a task still held) has ended it: a hold is left open only while its call runs. (Records from before the ledger kept by its retention are not checked: their ends are in its checkpoints.)',
    params: ['account', 'ledger'],
    sql: `SELECT r."id" AS "request_id", r."hold_id"::text AS "hold_id" FROM "usage_records" r
          WHERE r."hold_id" IS NOT NULL AND r."billing_state" <> 'held' AND ($1::text IS NULL OR r."account_id" = $1)
            AND ($2::timestamptz IS NULL OR r."created_at" >= $2 + interval '1 day')
            AND NOT EXISTS (SELECT 1 FROM "ledger_entries" e WHERE e."hold_id" = r."hold_id" AND e."kind" IN ('settle', 'release'))`,
  },
  {
    name: 'charged_equals_usage_records',
    description: "Per account, what the ledger charged (settles and late charges, less refunds) equals the sum of the usage records' amount_microusd over the records that ended a hold. (After partitions were dropped for retention: over the holds both tables still hold whole.)",
    params: ['account', 'both'],
    sql: `SELECT coalesce(l."account_id", r."account_id") AS "account_id", coalesce(l."charged", 0)::text AS "ledger_charged_microusd", coalesce(r."amount", 0)::text AS "records_microusd"
          FROM (SELECT "account_id", sum("charged_microusd") AS "charged" FROM "ledger_entries" WHERE ($1::text IS NULL OR "account_id" = $1)
                  AND ($2::timestamptz IS NULL OR "hold_id" IN (${HOLDS_PAST_HORIZON})) GROUP BY "account_id") l
          FULL JOIN (SELECT "account_id", sum("amount_microusd") AS "amount" FROM "usage_records"
                     WHERE "hold_id" IS NOT NULL AND "billing_state" <> 'held' AND ($1::text IS NULL OR "account_id" = $1)
                       AND ($2::timestamptz IS NULL OR "hold_id" IN (${HOLDS_PAST_HORIZON})) GROUP BY "account_id") r
            ON r."account_id" = l."account_id"
          WHERE coalesce(l."charged", 0) <> coalesce(r."amount", 0)`,
  },
  {
    name: 'budget_usage_is_ledger_sum',
    description: "Every budget's spent and held amounts per period equal the sums of the ledger entries of the holds counted against it (those of holds in partitions dropped for retention by their checkpoints).",
    params: ['account'],
    sql: `WITH "counted" AS (
            SELECT c->>0 AS "budget_id", (c->>1)::timestamptz AS "period_start", h."id" AS "hold_id", -h."amount_microusd" AS "held"
            FROM "ledger_entries" h, jsonb_array_elements(h."budgets") AS c
            WHERE h."kind" = 'hold' AND h."budgets" IS NOT NULL AND ($1::text IS NULL OR h."account_id" = $1)
          ), "sums" AS (
            SELECT k."budget_id", k."period_start",
              sum(CASE WHEN NOT EXISTS (SELECT 1 FROM "ledger_entries" e WHERE e."hold_id" = k."hold_id" AND e."kind" IN ('settle', 'release')) THEN k."held" ELSE 0 END) AS "held",
              coalesce(sum((SELECT sum(e."charged_microusd") FROM "ledger_entries" e WHERE e."hold_id" = k."hold_id" AND e."kind" IN ('settle', 'charge', 'refund'))), 0) AS "spent"
            FROM "counted" k GROUP BY k."budget_id", k."period_start"
          ), "checkpoints" AS (
            SELECT "budget_id", "period_start", sum("spent_microusd") AS "spent" FROM "budget_checkpoints" GROUP BY "budget_id", "period_start"
          )
          SELECT u."budget_id", u."period_start", u."spent_microusd"::text AS "spent_microusd", (coalesce(s."spent", 0) + coalesce(k."spent", 0))::text AS "ledger_spent_microusd",
            u."held_microusd"::text AS "held_microusd", coalesce(s."held", 0)::text AS "ledger_held_microusd"
          FROM "budget_usage" u JOIN "budgets" b ON b."id" = u."budget_id"
          LEFT JOIN "sums" s ON s."budget_id" = u."budget_id" AND s."period_start" = u."period_start"
          LEFT JOIN "checkpoints" k ON k."budget_id" = u."budget_id" AND k."period_start" = u."period_start"
          WHERE ($1::text IS NULL OR b."account_id" = $1)
            AND (u."spent_microusd" <> coalesce(s."spent", 0) + coalesce(k."spent", 0) OR u."held_microusd" <> coalesce(s."held", 0))`,
  },
];

/**
 * The spend-control invariants, recomputed from the append-only ledger and
 * the usage records (the admin reconcile endpoint, and the tests after
 * load with failures): balances and budget sums agree with the ledger,
 * every hold ends once, and what the ledger charged is what the usage
 * records say. Reads only; a full pass over a large ledger is a report,
 * not something for the request path.
 */
export async function reconcileSpend(db: Pick<Database, 'query'>, accountId: string | null): Promise<ReconcileReport> {
  const horizons = await retentionHorizons(db);
  const values: Record<CheckParam, unknown> = { account: accountId, ...horizons };
  const checks: ReconcileCheck[] = [];
  for (const check of CHECKS) {
    const { rows } = await db.query<Record<string, unknown>>(`${check.sql} LIMIT ${MAX_VIOLATIONS}`, check.params.map((p) => values[p]));
    checks.push({ name: check.name, description: check.description, ok: rows.length === 0, violations: rows.map(jsonSafe) });
  }
  const { rows } = await db.query<{ count: number; amount: string | null; oldest: Date | string | null }>(
    `SELECT count(*)::int AS "count", sum(-h."amount_microusd")::text AS "amount", min(h."created_at") AS "oldest" FROM "ledger_entries" h
     WHERE h."kind" = 'hold' AND ($1::text IS NULL OR h."account_id" = $1)
       AND NOT EXISTS (SELECT 1 FROM "ledger_entries" e WHERE e."hold_id" = h."id" AND e."kind" IN ('settle', 'release'))`,
    [accountId],
  );
  const open = rows[0]!;
  return {
    object: 'reconcile',
    account_id: accountId,
    ok: checks.every((c) => c.ok),
    checks,
    open_holds: { count: open.count, amount_microusd: Number(open.amount ?? 0), oldest_at: open.oldest ? new Date(open.oldest).toISOString() : null },
    checked_at: new Date().toISOString(),
  };
}

async function retentionHorizons(db: Pick<Database, 'query'>): Promise<Horizons> {
  const { rows } = await db.query<{ ledger: Date | string | null; usage: Date | string | null }>(
    `SELECT max("through") FILTER (WHERE "table_name" = 'ledger_entries') AS "ledger", max("through") FILTER (WHERE "table_name" = 'usage_records') AS "usage" FROM "dropped_partitions"`,
    [],
  );
  const ledger = rows[0]?.ledger ? new Date(rows[0].ledger) : null;
  const usage = rows[0]?.usage ? new Date(rows[0].usage) : null;
  return { ledger, both: ledger && usage ? new Date(Math.max(+ledger, +usage)) : (ledger ?? usage) };
}

function jsonSafe(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : typeof v === 'bigint' ? v.toString() : v]));
}
