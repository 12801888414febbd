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

-- Places holds for calls about to be made, one statement for a batch. Items
-- are taken account by account (in account order, so that batches never wait
-- on each other in a circle). For each account: its wallet row is locked,
-- which serialises every hold and end of one account across all instances;
-- its budgets and their current-period sums are read once; each item is
-- checked in order against the running balance and every budget over its
-- caller, and written as a hold; then the wallet and the budget sums move
-- once for the whole group. An account without a wallet is not under spend
-- control: no hold, no refusal.
CREATE FUNCTION gateway_place_holds(items JSONB)
RETURNS TABLE ("item" INT, "hold" BIGINT, "refusal" TEXT, "budget" TEXT, "soft_exceeded" TEXT[])
LANGUAGE plpgsql AS $$
DECLARE
  r RECORD;
  b RECORD;
  current_account TEXT := NULL;
  controlled BOOLEAN := FALSE;
  balance BIGINT;
  credit_limit BIGINT;
  taken BIGINT := 0;
  -- The account's budgets, in parallel arrays: id, scope, scope id, mode, limit, period start, used (spent + held), held by this batch.
  b_id TEXT[]; b_scope TEXT[]; b_scope_id TEXT[]; b_mode TEXT[]; b_limit BIGINT[]; b_start TIMESTAMPTZ[]; b_used BIGINT[]; b_added BIGINT[];
  n INT;
  k INT;
  over TEXT;
  counted JSONB;
  hits INT[];
  soft TEXT[];
  new_hold BIGINT;
BEGIN
  FOR r IN
    SELECT * FROM jsonb_to_recordset(items) AS x("i" INT, "account_id" TEXT, "key_id" TEXT, "parent_key_id" TEXT,
      "project_id" TEXT, "member_id" TEXT, "amount" BIGINT, "request_id" TEXT)
    ORDER BY x."account_id", x."i"
  LOOP
    IF current_account IS DISTINCT FROM r."account_id" THEN
      IF controlled THEN PERFORM gateway_move_held(current_account, taken, b_id, b_start, b_added); END IF;
      current_account := r."account_id";
      taken := 0;
      SELECT w."balance_microusd", w."credit_limit_microusd" INTO balance, credit_limit FROM "wallets" w WHERE w."account_id" = r."account_id" FOR UPDATE;
      controlled := FOUND;
      IF controlled THEN
        b_id := ARRAY[]::TEXT[]; b_scope := ARRAY[]::TEXT[]; b_scope_id := ARRAY[]::TEXT[]; b_mode := ARRAY[]::TEXT[];
        b_limit := ARRAY[]::BIGINT[]; b_start := ARRAY[]::TIMESTAMPTZ[]; b_used := ARRAY[]::BIGINT[]; b_added := ARRAY[]::BIGINT[];
        FOR b IN
          SELECT bg."id", bg."scope", bg."scope_id", bg."mode", bg."limit_microusd", gateway_period_start(bg."period", now()) AS "start"
          FROM "budgets" bg WHERE bg."account_id" = r."account_id" AND bg."deleted_at" IS NULL ORDER BY bg."id"
        LOOP
          INSERT INTO "budget_usage" ("budget_id", "period_start") VALUES (b."id", b."start") ON CONFLICT DO NOTHING;
          b_id := b_id || b."id"; b_scope := b_scope || b."scope"; b_scope_id := b_scope_id || b."scope_id"; b_mode := b_mode || b."mode";
          b_limit := b_limit || b."limit_microusd"; b_start := b_start || b."start"; b_added := b_added || 0::BIGINT;
          b_used := b_used || (SELECT u."spent_microusd" + u."held_microusd" FROM "budget_usage" u WHERE u."budget_id" = b."id" AND u."period_start" = b."start");
        END LOOP;
      END IF;
    END IF;
    "item" := r."i"; "hold" := NULL; "refusal" := NULL; "budget" := NULL; "soft_exceeded" := NULL;
    IF NOT controlled THEN
      RETURN NEXT;
      CONTINUE;
    END IF;
    IF credit_limit IS NOT NULL AND balance - taken - r."amount" < -credit_limit THEN
      "refusal" := 'insufficient_balance';
      RETURN NEXT;
      CONTINUE;
    END IF;
    n := coalesce(array_length(b_id, 1), 0);
    over := NULL;
    soft := ARRAY[]::TEXT[];
    counted := '[]'::jsonb;
    hits := ARRAY[]::INT[];
    FOR k IN 1..n LOOP
      -- Over this caller? (A NULL project, member or parent matches nothing.)
      CONTINUE WHEN NOT coalesce((b_scope[k] = 'key' AND (b_scope_id[k] = r."key_id" OR b_scope_id[k] = r."parent_key_id"))
        OR (b_scope[k] = 'project' AND b_scope_id[k] = r."project_id")
        OR (b_scope[k] = 'member' AND b_scope_id[k] = r."member_id")
        OR b_scope[k] = 'account', FALSE);
      IF b_used[k] + r."amount" > b_limit[k] THEN
        IF b_mode[k] = 'hard' THEN over := b_id[k]; EXIT; END IF;
        soft := soft || b_id[k];
      END IF;
      counted := counted || jsonb_build_array(jsonb_build_array(b_id[k], b_start[k]));
      hits := hits || k;
    END LOOP;
    IF over IS NOT NULL THEN
      "refusal" := 'budget_exceeded';
      "budget" := over;
      RETURN NEXT;
      CONTINUE;
    END IF;
    FOREACH k IN ARRAY hits LOOP
      b_used[k] := b_used[k] + r."amount";
      b_added[k] := b_added[k] + r."amount";
    END LOOP;
    taken := taken + r."amount";
    INSERT INTO "ledger_entries" ("account_id", "kind", "amount_microusd", "request_id", "key_id", "parent_key_id", "project_id", "member_id", "budgets")
    VALUES (r."account_id", 'hold', -r."amount", r."request_id", r."key_id", r."parent_key_id", r."project_id", r."member_id", counted)
    RETURNING "id" INTO new_hold;
    "hold" := new_hold;
    IF array_length(soft, 1) > 0 THEN "soft_exceeded" := soft; END IF;
    RETURN NEXT;
  END LOOP;
  IF controlled THEN PERFORM gateway_move_held(current_account, taken, b_id, b_start, b_added); END IF;
END
$$;

-- The running sums of a group of holds: the wallet once, each budget once.
CREATE FUNCTION gateway_move_held(p_account TEXT, p_taken BIGINT, p_ids TEXT[], p_starts TIMESTAMPTZ[], p_added BIGINT[]) RETURNS VOID
LANGUAGE plpgsql AS $$
BEGIN
  IF p_taken <> 0 THEN
    UPDATE "wallets" SET "balance_microusd" = "balance_microusd" - p_taken, "held_microusd" = "held_microusd" + p_taken, "updated_at" = now()
    WHERE "account_id" = p_account;
  END IF;
  UPDATE "budget_usage" bu SET "held_microusd" = bu."held_microusd" + m."added"
  FROM unnest(p_ids, p_starts, p_added) AS m("id", "start", "added")
  WHERE m."added" <> 0 AND bu."budget_id" = m."id" AND bu."period_start" = m."start";
END
$$;

-- Ends holds: `charged` is what the call cost (settle), or nothing was
-- charged (release). Idempotent: a hold already ended is left alone, except
-- that a charge arriving after an expired hold was released (a record
-- replayed late from a spool) is booked as a late `charge`, so the ledger
-- always holds what the usage records charged. Each end is one ledger row;
-- the wallets and budget sums move once per account and budget period.
-- Returns how many rows it wrote.
CREATE FUNCTION gateway_end_holds(items JSONB) RETURNS INT
LANGUAGE plpgsql AS $$
DECLARE
  r RECORD;
  written INT := 0;
  ended BIGINT;
  held BIGINT;
  charged BIGINT;
  prior RECORD;
  c JSONB;
  current_account TEXT := NULL;
  -- Per account: what goes back to the balance and what leaves the held amount.
  back BIGINT := 0;
  released BIGINT := 0;
  -- Per budget period, "budget_id|period_start" -> [held delta, spent delta].
  moves JSONB := '{}'::jsonb;
  slot TEXT;
BEGIN
  FOR r IN
    SELECT x.*, h."account_id", h."amount_microusd" AS "hold_amount", h."budgets", h."key_id", h."parent_key_id", h."project_id", h."member_id"
    FROM jsonb_to_recordset(items) AS x("hold_id" BIGINT, "charged" BIGINT, "request_id" TEXT, "note" TEXT)
    JOIN "ledger_entries" h ON h."id" = x."hold_id" AND h."kind" = 'hold'
    ORDER BY h."account_id", x."hold_id"
  LOOP
    IF current_account IS DISTINCT FROM r."account_id" THEN
      IF current_account IS NOT NULL THEN PERFORM gateway_move_ended(current_account, back, released, moves); END IF;
      current_account := r."account_id";
      back := 0; released := 0; moves := '{}'::jsonb;
      PERFORM 1 FROM "wallets" WHERE "account_id" = r."account_id" FOR UPDATE;
    END IF;
    held := -r."hold_amount";
    charged := coalesce(r."charged", 0);
    ended := NULL;
    INSERT INTO "ledger_entries" ("account_id", "kind", "amount_microusd", "charged_microusd", "hold_id", "request_id", "key_id", "parent_key_id", "project_id", "member_id", "note")
    VALUES (r."account_id", CASE WHEN r."charged" IS NULL THEN 'release' ELSE 'settle' END, held - charged, charged,
      r."hold_id", r."request_id", r."key_id", r."parent_key_id", r."project_id", r."member_id", r."note")
    ON CONFLICT ("hold_id") WHERE "kind" IN ('settle', 'release') DO NOTHING
    RETURNING "id" INTO ended;
    IF ended IS NULL THEN
      -- Already ended: only a charge after an expired hold's release is booked.
      IF charged = 0 THEN CONTINUE; END IF;
      SELECT "kind", "note" INTO prior FROM "ledger_entries" WHERE "hold_id" = r."hold_id" AND "kind" IN ('settle', 'release');
      IF prior."kind" <> 'release' OR coalesce(prior."note", '') <> 'expired' THEN CONTINUE; END IF;
      IF EXISTS (SELECT 1 FROM "ledger_entries" WHERE "hold_id" = r."hold_id" AND "kind" = 'charge') THEN CONTINUE; END IF;
      INSERT INTO "ledger_entries" ("account_id", "kind", "amount_microusd", "charged_microusd", "hold_id", "request_id", "key_id", "parent_key_id", "project_id", "member_id", "note")
      VALUES (r."account_id", 'charge', -charged, charged, r."hold_id", r."request_id", r."key_id", r."parent_key_id", r."project_id", r."member_id", 'after its hold expired');
      held := 0;
    END IF;
    written := written + 1;
    back := back + held - charged;
    released := released + held;
    FOR c IN SELECT * FROM jsonb_array_elements(coalesce(r."budgets", '[]'::jsonb)) LOOP
      slot := (c->>0) || '|' || (c->>1);
      moves := jsonb_set(moves, ARRAY[slot], jsonb_build_array(
        coalesce((moves->slot->>0)::BIGINT, 0) + held, coalesce((moves->slot->>1)::BIGINT, 0) + charged));
    END LOOP;
  END LOOP;
  IF current_account IS NOT NULL THEN PERFORM gateway_move_ended(current_account, back, released, moves); END IF;
  RETURN written;
END
$$;

-- The running sums of a group of ended holds: the wallet once, each budget period once.
CREATE FUNCTION gateway_move_ended(p_account TEXT, p_back BIGINT, p_released BIGINT, p_moves JSONB) RETURNS VOID
LANGUAGE plpgsql AS $$
BEGIN
  IF p_back <> 0 OR p_released <> 0 THEN
    UPDATE "wallets" SET "balance_microusd" = "balance_microusd" + p_back, "held_microusd" = "held_microusd" - p_released, "updated_at" = now()
    WHERE "account_id" = p_account;
  END IF;
  UPDATE "budget_usage" bu
  SET "held_microusd" = bu."held_microusd" - (m.value->>0)::BIGINT, "spent_microusd" = bu."spent_microusd" + (m.value->>1)::BIGINT
  FROM jsonb_each(p_moves) AS m
  WHERE bu."budget_id" = split_part(m.key, '|', 1) AND bu."period_start" = split_part(m.key, '|', 2)::timestamptz;
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
