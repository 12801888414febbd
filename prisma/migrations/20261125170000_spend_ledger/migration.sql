-- Spend control: one wallet per account, budgets on a key, project, member
-- or account, and an append-only ledger of every movement of money (top-up,
-- hold, settle, release, late charge, refund, adjustment).
--
-- An account is under spend control once it has a wallet (made by its first
-- top-up, limit or budget). Its every paid call then places a hold before the
-- upstream call (gateway_place_holds) and ends it when the usage record is
-- written (gateway_end_holds, in the record's own statement). `wallets` and
-- `budget_usage` are running sums of the ledger kept for the checks; the
-- reconcile endpoint recomputes them from the ledger.

CREATE TABLE "wallets" (
    "account_id" TEXT NOT NULL,
    -- The sum of the account's ledger: top-ups less charges and open holds.
    "balance_microusd" BIGINT NOT NULL DEFAULT 0,
    -- The sum of open holds (already taken from the balance).
    "held_microusd" BIGINT NOT NULL DEFAULT 0,
    -- How far below zero a hold may take the balance: 0 is prepaid; NULL
    -- never refuses (spend is tracked and budgets apply).
    "credit_limit_microusd" BIGINT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "wallets_pkey" PRIMARY KEY ("account_id"),
    CONSTRAINT "wallets_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

CREATE TABLE "budgets" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    -- key | project | member | account
    "scope" TEXT NOT NULL,
    -- The key, project or member id; the account id for an account budget.
    "scope_id" TEXT NOT NULL,
    -- total | monthly | daily (UTC)
    "period" TEXT NOT NULL,
    "limit_microusd" BIGINT NOT NULL,
    -- hard: a call that could pass the limit is refused; soft: it is let through and reported.
    "mode" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "budgets_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "budgets_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

CREATE INDEX "budgets_account_id_idx" ON "budgets"("account_id") WHERE "deleted_at" IS NULL;

-- What a budget has spent and holds in one period.
CREATE TABLE "budget_usage" (
    "budget_id" TEXT NOT NULL,
    "period_start" TIMESTAMPTZ(3) NOT NULL,
    "spent_microusd" BIGINT NOT NULL DEFAULT 0,
    "held_microusd" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "budget_usage_pkey" PRIMARY KEY ("budget_id", "period_start")
);

CREATE TABLE "ledger_entries" (
    "id" BIGSERIAL NOT NULL,
    "account_id" TEXT NOT NULL,
    -- top_up | hold | settle | release | charge | refund | adjustment
    "kind" TEXT NOT NULL,
    -- What the movement did to the wallet balance (a hold is negative).
    "amount_microusd" BIGINT NOT NULL,
    -- What it did to the amount charged for calls: a settle's or a late charge's cost, a refund negative.
    "charged_microusd" BIGINT NOT NULL DEFAULT 0,
    -- For settle, release, charge and refund: the hold they end or follow.
    "hold_id" BIGINT,
    "request_id" TEXT,
    "key_id" TEXT,
    "parent_key_id" TEXT,
    "project_id" TEXT,
    "member_id" TEXT,
    -- For a hold: the budgets and periods it counts against, [[budget_id, period_start], ...].
    "budgets" JSONB,
    "note" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id")
);

-- Every hold is ended (settled or released) at most once.
CREATE UNIQUE INDEX "ledger_entries_hold_end_key" ON "ledger_entries"("hold_id") WHERE "kind" IN ('settle', 'release');
CREATE INDEX "ledger_entries_account_id_idx" ON "ledger_entries"("account_id", "id" DESC);
CREATE INDEX "ledger_entries_request_id_idx" ON "ledger_entries"("request_id");
-- The expired-hold sweep reads the holds of a time window.
CREATE INDEX "ledger_entries_holds_created_at_idx" ON "ledger_entries"("created_at") WHERE "kind" = 'hold';

ALTER TABLE "usage_records" ADD COLUMN "hold_id" BIGINT;
CREATE INDEX "usage_records_hold_id_idx" ON "usage_records"("hold_id") WHERE "hold_id" IS NOT NULL;

-- The start of a budget period holding `at`, in UTC.
CREATE FUNCTION gateway_period_start(period TEXT, at TIMESTAMPTZ) RETURNS TIMESTAMPTZ
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE period
    WHEN 'daily' THEN date_trunc('day', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
    WHEN 'monthly' THEN date_trunc('month', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
    ELSE TIMESTAMPTZ '1970-01-01 00:00:00+00'
  END
$$;

-- Places holds for calls about to be made, one statement for a batch. For
-- each item (in the order of their accounts, so that batches never wait on
-- each other in a circle): the account's wallet row is locked, which
-- serialises every hold and end of one account across all instances; the
-- balance and every budget over the caller are checked against the amount;
-- then the hold is written and the running sums moved. An account without
-- a wallet is not under spend control: no hold, no refusal.
CREATE FUNCTION gateway_place_holds(items JSONB)
RETURNS TABLE ("item" INT, "hold" BIGINT, "refusal" TEXT, "budget" TEXT, "soft_exceeded" TEXT[])
LANGUAGE plpgsql AS $$
DECLARE
  r RECORD;
  w RECORD;
  b RECORD;
  u RECORD;
  ps TIMESTAMPTZ;
  counted JSONB;
  soft TEXT[];
  refused_by TEXT;
  new_hold BIGINT;
BEGIN
  FOR r IN
    SELECT * FROM jsonb_to_recordset(items) AS x("i" INT, "account_id" TEXT, "key_id" TEXT, "parent_key_id" TEXT,
      "project_id" TEXT, "member_id" TEXT, "amount" BIGINT, "request_id" TEXT)
    ORDER BY x."account_id", x."i"
  LOOP
    "item" := r."i"; "hold" := NULL; "refusal" := NULL; "budget" := NULL; "soft_exceeded" := NULL;
    SELECT "balance_microusd", "credit_limit_microusd" INTO w FROM "wallets" WHERE "account_id" = r."account_id" FOR UPDATE;
    IF NOT FOUND THEN
      RETURN NEXT;
      CONTINUE;
    END IF;
    IF w."credit_limit_microusd" IS NOT NULL AND w."balance_microusd" - r."amount" < -w."credit_limit_microusd" THEN
      "refusal" := 'insufficient_balance';
      RETURN NEXT;
      CONTINUE;
    END IF;
    counted := '[]'::jsonb;
    soft := ARRAY[]::TEXT[];
    refused_by := NULL;
    FOR b IN
      SELECT * FROM "budgets"
      WHERE "account_id" = r."account_id" AND "deleted_at" IS NULL
        AND (("scope" = 'key' AND "scope_id" IN (r."key_id", r."parent_key_id"))
          OR ("scope" = 'project' AND "scope_id" = r."project_id")
          OR ("scope" = 'member' AND "scope_id" = r."member_id")
          OR "scope" = 'account')
      ORDER BY "id"
    LOOP
      ps := gateway_period_start(b."period", now());
      INSERT INTO "budget_usage" ("budget_id", "period_start") VALUES (b."id", ps) ON CONFLICT DO NOTHING;
      SELECT "spent_microusd", "held_microusd" INTO u FROM "budget_usage" WHERE "budget_id" = b."id" AND "period_start" = ps;
      IF u."spent_microusd" + u."held_microusd" + r."amount" > b."limit_microusd" THEN
        IF b."mode" = 'hard' THEN
          refused_by := b."id";
          EXIT;
        END IF;
        soft := soft || b."id";
      END IF;
      counted := counted || jsonb_build_array(jsonb_build_array(b."id", ps));
    END LOOP;
    IF refused_by IS NOT NULL THEN
      "refusal" := 'budget_exceeded';
      "budget" := refused_by;
      RETURN NEXT;
      CONTINUE;
    END IF;
    INSERT INTO "ledger_entries" ("account_id", "kind", "amount_microusd", "request_id", "key_id", "parent_key_id", "project_id", "member_id", "budgets")
    VALUES (r."account_id", 'hold', -r."amount", r."request_id", r."key_id", r."parent_key_id", r."project_id", r."member_id", counted)
    RETURNING "id" INTO new_hold;
    UPDATE "wallets" SET "balance_microusd" = "balance_microusd" - r."amount", "held_microusd" = "held_microusd" + r."amount", "updated_at" = now()
    WHERE "account_id" = r."account_id";
    UPDATE "budget_usage" bu SET "held_microusd" = bu."held_microusd" + r."amount"
    FROM jsonb_array_elements(counted) AS c
    WHERE bu."budget_id" = c->>0 AND bu."period_start" = (c->>1)::timestamptz;
    "hold" := new_hold;
    IF array_length(soft, 1) > 0 THEN "soft_exceeded" := soft; END IF;
    RETURN NEXT;
  END LOOP;
END
$$;

-- Ends holds: `charged` is what the call cost (settle), or nothing was
-- charged (release). Idempotent: a hold already ended is left alone, except
-- that a charge arriving after an expired hold was released (a record
-- replayed late from a spool) is booked as a late `charge`, so the ledger
-- always holds what the usage records charged. Returns how many rows it wrote.
CREATE FUNCTION gateway_end_holds(items JSONB) RETURNS INT
LANGUAGE plpgsql AS $$
DECLARE
  r RECORD;
  written INT := 0;
  ended BIGINT;
  held BIGINT;
  prior RECORD;
BEGIN
  FOR r IN
    SELECT x.*, h."account_id", h."amount_microusd" AS "hold_amount", h."budgets", h."key_id", h."parent_key_id", h."project_id", h."member_id"
    FROM jsonb_to_recordset(items) AS x("hold_id" BIGINT, "charged" BIGINT, "request_id" TEXT, "note" TEXT)
    JOIN "ledger_entries" h ON h."id" = x."hold_id" AND h."kind" = 'hold'
    ORDER BY h."account_id", x."hold_id"
  LOOP
    PERFORM 1 FROM "wallets" WHERE "account_id" = r."account_id" FOR UPDATE;
    held := -r."hold_amount";
    ended := NULL;
    INSERT INTO "ledger_entries" ("account_id", "kind", "amount_microusd", "charged_microusd", "hold_id", "request_id", "key_id", "parent_key_id", "project_id", "member_id", "note")
    VALUES (r."account_id", CASE WHEN r."charged" IS NULL THEN 'release' ELSE 'settle' END, held - coalesce(r."charged", 0), coalesce(r."charged", 0),
      r."hold_id", r."request_id", r."key_id", r."parent_key_id", r."project_id", r."member_id", r."note")
    ON CONFLICT ("hold_id") WHERE "kind" IN ('settle', 'release') DO NOTHING
    RETURNING "id" INTO ended;
    IF ended IS NOT NULL THEN
      written := written + 1;
      UPDATE "wallets" SET "balance_microusd" = "balance_microusd" + held - coalesce(r."charged", 0), "held_microusd" = "held_microusd" - held, "updated_at" = now()
      WHERE "account_id" = r."account_id";
      UPDATE "budget_usage" bu SET "held_microusd" = bu."held_microusd" - held, "spent_microusd" = bu."spent_microusd" + coalesce(r."charged", 0)
      FROM jsonb_array_elements(r."budgets") AS c
      WHERE bu."budget_id" = c->>0 AND bu."period_start" = (c->>1)::timestamptz;
      CONTINUE;
    END IF;
    IF coalesce(r."charged", 0) = 0 THEN CONTINUE; END IF;
    SELECT "kind", "note" INTO prior FROM "ledger_entries" WHERE "hold_id" = r."hold_id" AND "kind" IN ('settle', 'release');
    IF prior."kind" <> 'release' OR coalesce(prior."note", '') <> 'expired' THEN CONTINUE; END IF;
    IF EXISTS (SELECT 1 FROM "ledger_entries" WHERE "hold_id" = r."hold_id" AND "kind" = 'charge') THEN CONTINUE; END IF;
    INSERT INTO "ledger_entries" ("account_id", "kind", "amount_microusd", "charged_microusd", "hold_id", "request_id", "key_id", "parent_key_id", "project_id", "member_id", "note")
    VALUES (r."account_id", 'charge', -r."charged", r."charged", r."hold_id", r."request_id", r."key_id", r."parent_key_id", r."project_id", r."member_id", 'after its hold expired');
    written := written + 1;
    UPDATE "wallets" SET "balance_microusd" = "balance_microusd" - r."charged", "updated_at" = now() WHERE "account_id" = r."account_id";
    UPDATE "budget_usage" bu SET "spent_microusd" = bu."spent_microusd" + r."charged"
    FROM jsonb_array_elements(r."budgets") AS c
    WHERE bu."budget_id" = c->>0 AND bu."period_start" = (c->>1)::timestamptz;
  END LOOP;
  RETURN written;
END
$$;

-- A movement an operator makes (top-up, adjustment) or a refund of a settled
-- charge. A wallet made by it is prepaid (credit limit 0): money put in is
-- what may be spent. Returns the entry's id.
CREATE FUNCTION gateway_wallet_movement(p_account TEXT, p_kind TEXT, p_amount BIGINT, p_charged BIGINT, p_hold BIGINT, p_request TEXT, p_note TEXT)
RETURNS BIGINT
LANGUAGE plpgsql AS $$
DECLARE
  entry BIGINT;
BEGIN
  INSERT INTO "wallets" ("account_id", "credit_limit_microusd") VALUES (p_account, 0) ON CONFLICT DO NOTHING;
  PERFORM 1 FROM "wallets" WHERE "account_id" = p_account FOR UPDATE;
  INSERT INTO "ledger_entries" ("account_id", "kind", "amount_microusd", "charged_microusd", "hold_id", "request_id", "note")
  VALUES (p_account, p_kind, p_amount, p_charged, p_hold, p_request, p_note)
  RETURNING "id" INTO entry;
  UPDATE "wallets" SET "balance_microusd" = "balance_microusd" + p_amount, "updated_at" = now() WHERE "account_id" = p_account;
  -- A refund gives back to the budgets the refunded call counted against.
  IF p_hold IS NOT NULL AND p_charged <> 0 THEN
    UPDATE "budget_usage" bu SET "spent_microusd" = bu."spent_microusd" + p_charged
    FROM "ledger_entries" h, jsonb_array_elements(h."budgets") AS c
    WHERE h."id" = p_hold AND h."kind" = 'hold' AND bu."budget_id" = c->>0 AND bu."period_start" = (c->>1)::timestamptz;
  END IF;
  RETURN entry;
END
$$;
