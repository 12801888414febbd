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
  /** Leases not given back yet (instances spending them, or dead ones' not yet expired): what they were granted and what their calls were charged so far. */
  open_leases: { count: number; granted_microusd: number; charged_microusd: number };
  checked_at: string;
}

const MAX_VIOLATIONS = 100;

interface Check {
  name: string;
  description: string;
  /** Returns the offending rows; `$1` is the account id or NULL for all accounts. */
  sql: string;
}

const CHECKS: Check[] = [
  {
    name: 'wallet_balance_is_ledger_sum',
    description: "Every wallet's balance equals the sum of its account's ledger entries, and its held amount the sum of its open holds and open leases.",
    sql: `SELECT w."account_id", w."balance_microusd"::text AS "balance_microusd", coalesce(l."total", 0)::text AS "ledger_sum_microusd",
            w."held_microusd"::text AS "held_microusd", coalesce(o."open", 0)::text AS "open_holds_microusd"
          FROM "wallets" w
          LEFT JOIN (SELECT "account_id", sum("amount_microusd") AS "total" FROM "ledger_entries" WHERE $1::text IS NULL OR "account_id" = $1 GROUP BY "account_id") l USING ("account_id")
          LEFT JOIN (SELECT h."account_id", sum(-h."amount_microusd") AS "open" FROM "ledger_entries" h
                     WHERE h."kind" IN ('hold', 'lease') AND ($1::text IS NULL OR h."account_id" = $1)
                       AND NOT EXISTS (SELECT 1 FROM "ledger_entries" e WHERE e."hold_id" = h."id" AND e."kind" IN ('settle', 'release'))
                       AND NOT EXISTS (SELECT 1 FROM "ledger_entries" e WHERE e."hold_id" = h."id" AND e."kind" = 'lease_return')
                     GROUP BY h."account_id") o USING ("account_id")
          WHERE ($1::text IS NULL OR w."account_id" = $1)
            AND (w."balance_microusd" <> coalesce(l."total", 0) OR w."held_microusd" <> coalesce(o."open", 0))`,
  },
  {
    name: 'hold_ended_at_most_once',
    description: 'No hold is settled or released more than once, and no lease returned more than once.',
    sql: `SELECT "hold_id"::text AS "hold_id", count(*)::int AS "ends" FROM "ledger_entries"
          WHERE "kind" IN ('settle', 'release', 'lease_return') AND ($1::text IS NULL OR "account_id" = $1)
          GROUP BY "hold_id" HAVING count(*) > 1`,
  },
  {
    name: 'written_record_ended_its_hold',
    description:
      'Every usage record written with a hold (other than a task still held) has ended it: a hold is left open only while its call runs. ' +
      'Every record charged inside a lease has its charge entry.',
    sql: `SELECT r."id" AS "request_id", r."hold_id"::text AS "hold_id" FROM "usage_records" r
          JOIN "ledger_entries" h ON h."id" = r."hold_id"
          WHERE r."hold_id" IS NOT NULL AND r."billing_state" <> 'held' AND ($1::text IS NULL OR r."account_id" = $1)
            AND CASE WHEN h."kind" = 'lease'
              THEN NOT EXISTS (SELECT 1 FROM "ledger_entries" e WHERE e."request_id" = r."id" AND e."hold_id" = r."hold_id" AND e."kind" = 'charge')
                AND (r."amount_microusd" > 0 OR r."billing_state" = 'refunded')
              ELSE NOT EXISTS (SELECT 1 FROM "ledger_entries" e WHERE e."hold_id" = r."hold_id" AND e."kind" IN ('settle', 'release')) END`,
  },
  {
    name: 'charged_equals_usage_records',
    description: "Per account, what the ledger charged (settles and late charges, less refunds) equals the sum of the usage records' amount_microusd over the records that ended a hold.",
    sql: `SELECT coalesce(l."account_id", r."account_id") AS "account_id", coalesce(l."charged", 0)::text AS "ledger_charged_microusd", coalesce(r."amount", 0)::text AS "records_microusd"
          FROM (SELECT "account_id", sum("charged_microusd") AS "charged" FROM "ledger_entries" WHERE $1::text IS NULL OR "account_id" = $1 GROUP BY "account_id") l
          FULL JOIN (SELECT "account_id", sum("amount_microusd") AS "amount" FROM "usage_records"
                     WHERE "hold_id" IS NOT NULL AND "billing_state" <> 'held' AND ($1::text IS NULL OR "account_id" = $1) GROUP BY "account_id") r
            ON r."account_id" = l."account_id"
          WHERE coalesce(l."charged", 0) <> coalesce(r."amount", 0)`,
  },
  {
    name: 'budget_usage_is_ledger_sum',
    description:
      "Every budget's spent and held amounts per period equal the sums of the ledger entries of the holds and leases counted against it " +
      '(an open lease holds its whole grant; its charges count as spent once it is returned).',
    sql: `WITH "follow" AS (
            -- Per hold or lease, in one pass over the account's ledger: whether it ended, and what was charged under it (charges and refunds apart).
            SELECT e."hold_id", bool_or(e."kind" IN ('settle', 'release', 'lease_return')) AS "ended",
              coalesce(sum(e."charged_microusd") FILTER (WHERE e."kind" IN ('settle', 'refund')), 0) AS "settled",
              coalesce(sum(e."charged_microusd") FILTER (WHERE e."kind" = 'charge'), 0) AS "charged"
            FROM "ledger_entries" e WHERE e."hold_id" IS NOT NULL AND ($1::text IS NULL OR e."account_id" = $1) GROUP BY e."hold_id"
          ), "counted" AS (
            SELECT c->>0 AS "budget_id", (c->>1)::timestamptz AS "period_start", h."kind", -h."amount_microusd" AS "held",
              coalesce(f."ended", FALSE) AS "ended", coalesce(f."settled", 0) AS "settled", coalesce(f."charged", 0) AS "charged"
            FROM "ledger_entries" h CROSS JOIN jsonb_array_elements(h."budgets") AS c LEFT JOIN "follow" f ON f."hold_id" = h."id"
            WHERE h."kind" IN ('hold', 'lease') AND h."budgets" IS NOT NULL AND ($1::text IS NULL OR h."account_id" = $1)
          ), "sums" AS (
            -- An open lease holds its whole grant; its charges count as spent once it is returned.
            SELECT k."budget_id", k."period_start",
              sum(CASE WHEN k."ended" THEN 0 ELSE k."held" END) AS "held",
              sum(k."settled" + CASE WHEN k."kind" = 'hold' OR k."ended" THEN k."charged" ELSE 0 END) AS "spent"
            FROM "counted" k GROUP BY k."budget_id", k."period_start"
          )
          SELECT u."budget_id", u."period_start", u."spent_microusd"::text AS "spent_microusd", coalesce(s."spent", 0)::text AS "ledger_spent_microusd",
            u."held_microusd"::text AS "held_microusd", coalesce(s."held", 0)::text AS "ledger_held_microusd"
          FROM "budget_usage" u JOIN "budgets" b ON b."id" = u."budget_id"
          LEFT JOIN "sums" s ON s."budget_id" = u."budget_id" AND s."period_start" = u."period_start"
          WHERE ($1::text IS NULL OR b."account_id" = $1)
            AND (u."spent_microusd" <> coalesce(s."spent", 0) OR u."held_microusd" <> coalesce(s."held", 0))`,
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
  const checks: ReconcileCheck[] = [];
  for (const check of CHECKS) {
    const { rows } = await db.query<Record<string, unknown>>(`${check.sql} LIMIT ${MAX_VIOLATIONS}`, [accountId]);
    checks.push({ name: check.name, description: check.description, ok: rows.length === 0, violations: rows.map(jsonSafe) });
  }
  const { rows } = await db.query<{ count: number; amount: string | null; oldest: Date | string | null }>(
    `SELECT count(*)::int AS "count", sum(-h."amount_microusd")::text AS "amount", min(h."created_at") AS "oldest" FROM "ledger_entries" h
     WHERE h."kind" = 'hold' AND ($1::text IS NULL OR h."account_id" = $1)
       AND NOT EXISTS (SELECT 1 FROM "ledger_entries" e WHERE e."hold_id" = h."id" AND e."kind" IN ('settle', 'release'))`,
    [accountId],
  );
  const open = rows[0]!;
  const leases = await db.query<{ count: number; granted: string | null; charged: string | null }>(
    `SELECT count(*)::int AS "count", sum("granted_microusd")::text AS "granted", sum("charged_microusd")::text AS "charged" FROM "spend_leases"
     WHERE "ended_at" IS NULL AND ($1::text IS NULL OR "account_id" = $1)`,
    [accountId],
  );
  const lease = leases.rows[0]!;
  return {
    object: 'reconcile',
    account_id: accountId,
    ok: checks.every((c) => c.ok),
    checks,
    open_holds: { count: open.count, amount_microusd: Number(open.amount ?? 0), oldest_at: open.oldest ? new Date(open.oldest).toISOString() : null },
    open_leases: { count: lease.count, granted_microusd: Number(lease.granted ?? 0), charged_microusd: Number(lease.charged ?? 0) },
    checked_at: new Date().toISOString(),
  };
}

function jsonSafe(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : typeof v === 'bigint' ? v.toString() : v]));
}
