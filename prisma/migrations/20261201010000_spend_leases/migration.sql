-- Spend leases: an instance takes an allotment of an account's wallet and of
-- every budget over one caller (key, project, member) in one ledger entry
-- (`lease`), places the holds of that caller's calls inside it in memory, and
-- gives back what it did not spend (`lease_return`) when it is idle, drained,
-- too old, at shutdown, or, when the instance died, once the lease's expiry
-- has passed and another instance or the sweep sees it.
--
-- While a lease is open, the whole grant counts as held: against the wallet
-- (its held amount) and against every budget it counted in, so hard budgets
-- and the wallet's floor are kept exactly as with one hold per call. Each call
-- charged inside a lease is one `charge` entry naming the lease (`hold_id`)
-- and the request, written with its usage record (wallet amount 0: the money
-- left the balance with the lease); the lease row keeps the running sum, and
-- the return moves the wallet and the budgets once for the whole lease.

CREATE TABLE "spend_leases" (
    -- The lease's ledger entry.
    "id" BIGINT NOT NULL,
    "account_id" TEXT NOT NULL,
    -- The instance that holds it.
    "holder" TEXT NOT NULL,
    "granted_microusd" BIGINT NOT NULL,
    -- What its calls were charged so far (their `charge` entries).
    "charged_microusd" BIGINT NOT NULL DEFAULT 0,
    -- Renewed by its holder while it is open; past it, anyone may end it.
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "spend_leases_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "spend_leases_open_idx" ON "spend_leases"("account_id") WHERE "ended_at" IS NULL;
CREATE INDEX "spend_leases_expiry_idx" ON "spend_leases"("expires_at") WHERE "ended_at" IS NULL;
-- A lease is given back at most once.
CREATE UNIQUE INDEX "ledger_entries_lease_return_key" ON "ledger_entries"("hold_id") WHERE "kind" = 'lease_return';

-- Ends open leases: what was granted and not charged goes back to the
-- wallet (one `lease_return` entry), the wallet's and the budgets' held
-- amounts drop by the grant, and the budgets' spent amounts rise by what was
-- charged. Locks the leases first (in id order), then each wallet: the order
-- every statement that touches both keeps. Returns how many it ended.
CREATE FUNCTION gateway_end_leases(p_ids BIGINT[], p_note TEXT) RETURNS INT
LANGUAGE plpgsql AS $$
DECLARE
  l RECORD;
  ended INT := 0;
  open BIGINT;
BEGIN
  PERFORM 1 FROM "spend_leases" WHERE "id" = ANY(p_ids) AND "ended_at" IS NULL ORDER BY "id" FOR UPDATE;
  FOR l IN
    SELECT s."id", s."account_id", s."granted_microusd", s."charged_microusd", h."budgets", h."key_id", h."parent_key_id", h."project_id", h."member_id"
    FROM "spend_leases" s JOIN "ledger_entries" h ON h."id" = s."id"
    WHERE s."id" = ANY(p_ids) AND s."ended_at" IS NULL ORDER BY s."account_id", s."id"
  LOOP
    PERFORM 1 FROM "wallets" WHERE "account_id" = l."account_id" FOR UPDATE;
    open := l."granted_microusd" - l."charged_microusd";
    INSERT INTO "ledger_entries" ("account_id", "kind", "amount_microusd", "charged_microusd", "hold_id", "key_id", "parent_key_id", "project_id", "member_id", "note")
    VALUES (l."account_id", 'lease_return', open, 0, l."id", l."key_id", l."parent_key_id", l."project_id", l."member_id", p_note);
    UPDATE "wallets" SET "balance_microusd" = "balance_microusd" + open, "held_microusd" = "held_microusd" - l."granted_microusd", "updated_at" = now()
    WHERE "account_id" = l."account_id";
    UPDATE "budget_usage" bu SET "held_microusd" = bu."held_microusd" - l."granted_microusd", "spent_microusd" = bu."spent_microusd" + l."charged_microusd"
    FROM jsonb_array_elements(coalesce(l."budgets", '[]'::jsonb)) AS c
    WHERE bu."budget_id" = c->>0 AND bu."period_start" = (c->>1)::timestamptz;
    UPDATE "spend_leases" SET "ended_at" = now() WHERE "id" = l."id";
    ended := ended + 1;
  END LOOP;
  RETURN ended;
END
$$;

-- Ends the leases whose expiry has passed (their holder died or stalled), at
-- most `p_max`, of one account or of all. Returns how many it ended.
CREATE FUNCTION gateway_expire_leases(p_account TEXT, p_max INT) RETURNS INT
LANGUAGE sql AS $$
  SELECT gateway_end_leases(coalesce(array_agg("id"), ARRAY[]::BIGINT[]), 'expired')
  FROM (SELECT "id" FROM "spend_leases" WHERE "ended_at" IS NULL AND "expires_at" < now() AND (p_account IS NULL OR "account_id" = p_account)
        ORDER BY "id" LIMIT p_max) e
$$;

-- Takes a lease for one caller of an account: at most `p_want`, at most
-- 1/`p_share` of the room the wallet and the caller's hard budgets have left
-- (counting every open hold and lease as spent), in whole `p_unit`s (a call's
-- worst case); none when that is less than `p_min_units` units, and then the
-- caller places exact holds per call. The account's expired leases are ended
-- first. `controlled` is false for an account without a wallet.
CREATE FUNCTION gateway_take_lease(p_account TEXT, p_key TEXT, p_parent TEXT, p_project TEXT, p_member TEXT,
  p_want BIGINT, p_unit BIGINT, p_min_units INT, p_share INT, p_holder TEXT, p_ttl_ms INT)
RETURNS TABLE ("lease" BIGINT, "granted" BIGINT, "controlled" BOOLEAN, "soft_exceeded" TEXT[])
LANGUAGE plpgsql AS $$
DECLARE
  b RECORD;
  balance BIGINT;
  credit_limit BIGINT;
  room BIGINT := NULL;
  used BIGINT;
  amount BIGINT;
  counted JSONB := '[]'::jsonb;
  b_id TEXT[] := ARRAY[]::TEXT[];
  b_start TIMESTAMPTZ[] := ARRAY[]::TIMESTAMPTZ[];
  b_added BIGINT[] := ARRAY[]::BIGINT[];
  b_used BIGINT[] := ARRAY[]::BIGINT[];
  b_limit BIGINT[] := ARRAY[]::BIGINT[];
  b_soft BOOLEAN[] := ARRAY[]::BOOLEAN[];
  soft TEXT[] := ARRAY[]::TEXT[];
  entry BIGINT;
  k INT;
BEGIN
  PERFORM 1 FROM "wallets" WHERE "account_id" = p_account;
  IF NOT FOUND THEN
    RETURN QUERY SELECT NULL::BIGINT, 0::BIGINT, FALSE, NULL::TEXT[];
    RETURN;
  END IF;
  -- Leases before the wallet, as everywhere.
  PERFORM gateway_expire_leases(p_account, 100);
  SELECT w."balance_microusd", w."credit_limit_microusd" INTO balance, credit_limit FROM "wallets" w WHERE w."account_id" = p_account FOR UPDATE;
  IF credit_limit IS NOT NULL THEN room := balance + credit_limit; END IF;
  FOR b IN
    SELECT bg."id", bg."mode", bg."limit_microusd", gateway_period_start(bg."period", now()) AS "start"
    FROM "budgets" bg WHERE bg."account_id" = p_account AND bg."deleted_at" IS NULL
      AND coalesce((bg."scope" = 'key' AND (bg."scope_id" = p_key OR bg."scope_id" = p_parent))
        OR (bg."scope" = 'project' AND bg."scope_id" = p_project)
        OR (bg."scope" = 'member' AND bg."scope_id" = p_member)
        OR bg."scope" = 'account', FALSE)
    ORDER BY bg."id"
  LOOP
    INSERT INTO "budget_usage" ("budget_id", "period_start") VALUES (b."id", b."start") ON CONFLICT DO NOTHING;
    SELECT u."spent_microusd" + u."held_microusd" INTO used FROM "budget_usage" u WHERE u."budget_id" = b."id" AND u."period_start" = b."start";
    IF b."mode" = 'hard' THEN room := least(room, b."limit_microusd" - used); END IF;
    b_id := b_id || b."id"; b_start := b_start || b."start"; b_used := b_used || used; b_limit := b_limit || b."limit_microusd";
    b_soft := b_soft || (b."mode" <> 'hard');
    counted := counted || jsonb_build_array(jsonb_build_array(b."id", b."start"));
  END LOOP;
  amount := CASE WHEN room IS NULL THEN p_want ELSE least(p_want, greatest(room, 0) / greatest(p_share, 1)) END;
  amount := amount - amount % greatest(p_unit, 1);
  IF amount <= 0 OR amount < p_unit * p_min_units THEN
    RETURN QUERY SELECT NULL::BIGINT, 0::BIGINT, TRUE, NULL::TEXT[];
    RETURN;
  END IF;
  FOR k IN 1..coalesce(array_length(b_id, 1), 0) LOOP
    b_added := b_added || amount;
    IF b_soft[k] AND b_used[k] + amount > b_limit[k] THEN soft := soft || b_id[k]; END IF;
  END LOOP;
  INSERT INTO "ledger_entries" ("account_id", "kind", "amount_microusd", "key_id", "parent_key_id", "project_id", "member_id", "budgets", "note")
  VALUES (p_account, 'lease', -amount, p_key, p_parent, p_project, p_member, counted, p_holder)
  RETURNING "id" INTO entry;
  INSERT INTO "spend_leases" ("id", "account_id", "holder", "granted_microusd", "expires_at")
  VALUES (entry, p_account, p_holder, amount, now() + make_interval(secs => p_ttl_ms / 1000.0));
  PERFORM gateway_move_held(p_account, amount, b_id, b_start, b_added);
  RETURN QUERY SELECT entry, amount, TRUE, CASE WHEN array_length(soft, 1) > 0 THEN soft END;
END
$$;

-- As before, and the ends of calls held inside a lease: while the lease is
-- open, each charged call is one `charge` entry (wallet amount 0) and the
-- lease's running charge moves once per lease, without the wallet's lock;
-- a call whose record arrives after its lease ended (a spool replayed late)
-- is booked as a late `charge` from the balance, like a charge after an
-- expired hold. A call charged nothing inside a lease leaves no entry.
CREATE OR REPLACE FUNCTION gateway_end_holds(items JSONB) RETURNS INT
LANGUAGE plpgsql AS $$
DECLARE
  r RECORD;
  written INT := 0;
  leased INT := 0;
  open_leases BIGINT[];
  ended BIGINT;
  held BIGINT;
  charged BIGINT;
  prior RECORD;
  c JSONB;
  current_account TEXT := NULL;
  back BIGINT := 0;
  released BIGINT := 0;
  moves JSONB := '{}'::jsonb;
  slot TEXT;
BEGIN
  -- Calls inside open leases: the leases locked first (in id order), as everywhere.
  SELECT coalesce(array_agg(l."id"), ARRAY[]::BIGINT[]) INTO open_leases FROM (
    SELECT s."id" FROM "spend_leases" s
    WHERE s."id" IN (SELECT (e->>'hold_id')::BIGINT FROM jsonb_array_elements(items) e) AND s."ended_at" IS NULL
    ORDER BY s."id" FOR UPDATE) l;
  IF cardinality(open_leases) > 0 THEN
    WITH "inside" AS (
      INSERT INTO "ledger_entries" ("account_id", "kind", "amount_microusd", "charged_microusd", "hold_id", "request_id", "key_id", "parent_key_id", "project_id", "member_id")
      SELECT h."account_id", 'charge', 0, x."charged", x."hold_id", x."request_id", h."key_id", h."parent_key_id", h."project_id", h."member_id"
      FROM jsonb_to_recordset(items) AS x("hold_id" BIGINT, "charged" BIGINT, "request_id" TEXT, "note" TEXT)
      JOIN "spend_leases" s ON s."id" = x."hold_id" AND s."ended_at" IS NULL
      JOIN "ledger_entries" h ON h."id" = s."id"
      WHERE x."charged" > 0
      RETURNING "hold_id", "charged_microusd"
    ), "sums" AS (
      UPDATE "spend_leases" s SET "charged_microusd" = s."charged_microusd" + m."total"
      FROM (SELECT "hold_id", sum("charged_microusd") AS "total", count(*) AS "n" FROM "inside" GROUP BY "hold_id") m
      WHERE s."id" = m."hold_id"
      RETURNING m."n"
    )
    SELECT coalesce(sum("n"), 0)::INT INTO leased FROM "sums";
  END IF;
  FOR r IN
    SELECT x.*, h."kind" AS "hold_kind", h."account_id", h."amount_microusd" AS "hold_amount", h."budgets", h."key_id", h."parent_key_id", h."project_id", h."member_id"
    FROM jsonb_to_recordset(items) AS x("hold_id" BIGINT, "charged" BIGINT, "request_id" TEXT, "note" TEXT)
    JOIN "ledger_entries" h ON h."id" = x."hold_id" AND h."kind" IN ('hold', 'lease')
    WHERE x."hold_id" <> ALL(open_leases)
      AND (h."kind" = 'hold' OR (x."charged" > 0 AND EXISTS (SELECT 1 FROM "spend_leases" s WHERE s."id" = h."id" AND s."ended_at" IS NOT NULL)))
    ORDER BY h."account_id", x."hold_id"
  LOOP
    IF current_account IS DISTINCT FROM r."account_id" THEN
      IF current_account IS NOT NULL THEN PERFORM gateway_move_ended(current_account, back, released, moves); END IF;
      current_account := r."account_id";
      back := 0; released := 0; moves := '{}'::jsonb;
      PERFORM 1 FROM "wallets" WHERE "account_id" = r."account_id" FOR UPDATE;
    END IF;
    charged := coalesce(r."charged", 0);
    IF r."hold_kind" = 'lease' THEN
      -- After its lease ended: taken from the balance now.
      INSERT INTO "ledger_entries" ("account_id", "kind", "amount_microusd", "charged_microusd", "hold_id", "request_id", "key_id", "parent_key_id", "project_id", "member_id", "note")
      VALUES (r."account_id", 'charge', -charged, charged, r."hold_id", r."request_id", r."key_id", r."parent_key_id", r."project_id", r."member_id", 'after its lease ended');
      held := 0;
    ELSE
      held := -r."hold_amount";
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
  RETURN written + leased;
END
$$;

-- As before, and for a call charged inside a lease: its `charge` entry names
-- the lease, whose budgets the refund gives back to.
CREATE OR REPLACE FUNCTION gateway_refund(p_request TEXT, p_amount BIGINT, p_note TEXT, p_related TEXT DEFAULT NULL) RETURNS BIGINT
LANGUAGE plpgsql AS $$
DECLARE
  hold RECORD;
  charged BIGINT;
  amount BIGINT;
  entry BIGINT;
BEGIN
  SELECT h."id", h."account_id", h."key_id", h."parent_key_id", h."project_id", h."member_id" INTO hold
  FROM "ledger_entries" h WHERE h."request_id" = p_request AND h."kind" = 'hold' ORDER BY h."id" LIMIT 1;
  IF NOT FOUND THEN
    SELECT l."id", c."account_id", c."key_id", c."parent_key_id", c."project_id", c."member_id" INTO hold
    FROM "ledger_entries" c JOIN "ledger_entries" l ON l."id" = c."hold_id" AND l."kind" = 'lease'
    WHERE c."request_id" = p_request AND c."kind" = 'charge' ORDER BY c."id" LIMIT 1;
    IF NOT FOUND THEN RAISE EXCEPTION 'nothing_to_refund' USING ERRCODE = 'P0001'; END IF;
  END IF;
  PERFORM 1 FROM "wallets" WHERE "account_id" = hold."account_id" FOR UPDATE;
  SELECT coalesce(sum("charged_microusd"), 0) INTO charged FROM "ledger_entries"
  WHERE "request_id" = p_request AND "hold_id" = hold."id" AND "kind" IN ('settle', 'charge', 'refund');
  IF charged <= 0 THEN RAISE EXCEPTION 'nothing_to_refund' USING ERRCODE = 'P0001'; END IF;
  amount := coalesce(p_amount, charged);
  IF amount > charged THEN RAISE EXCEPTION 'refund_too_large:%', charged USING ERRCODE = 'P0001'; END IF;
  INSERT INTO "ledger_entries" ("account_id", "kind", "amount_microusd", "charged_microusd", "hold_id", "request_id", "key_id", "parent_key_id", "project_id", "member_id", "note", "related_request_id")
  VALUES (hold."account_id", 'refund', amount, -amount, hold."id", p_request, hold."key_id", hold."parent_key_id", hold."project_id", hold."member_id", p_note, p_related)
  RETURNING "id" INTO entry;
  UPDATE "wallets" SET "balance_microusd" = "balance_microusd" + amount, "updated_at" = now() WHERE "account_id" = hold."account_id";
  UPDATE "budget_usage" bu SET "spent_microusd" = bu."spent_microusd" - amount
  FROM "ledger_entries" h, jsonb_array_elements(h."budgets") AS c
  WHERE h."id" = hold."id" AND bu."budget_id" = c->>0 AND bu."period_start" = (c->>1)::timestamptz;
  UPDATE "usage_records" SET
    "amount_microusd" = "amount_microusd" - amount,
    "line_items" = "line_items" || jsonb_build_array(jsonb_build_object('dimension', 'refund', 'quantity', 1, 'unit_microusd', -amount, 'amount_microusd', -amount)),
    "billing_state" = CASE WHEN "amount_microusd" - amount = 0 THEN 'refunded' ELSE "billing_state" END
  WHERE "id" = p_request;
  RETURN entry;
END
$$;
