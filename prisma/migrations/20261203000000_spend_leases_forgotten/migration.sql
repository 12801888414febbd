-- Ended spend leases are deleted a day after they end (HoldSweeper): the
-- ledger keeps each lease's `lease` and `lease_return` entries, so the row
-- only served while the lease was open. What read ended rows no longer does:
-- a call whose record arrives after its lease ended (a spool replayed late)
-- is recognised by its lease not being open, whether the row is still there
-- or not. And a call charged inside an open lease finds the lease's ledger
-- entry in its own month (the lease row and its entry share their creation
-- time), not by id in every month.
CREATE INDEX "spend_leases_ended_idx" ON "spend_leases"("ended_at") WHERE "ended_at" IS NOT NULL;

CREATE OR REPLACE FUNCTION gateway_end_holds(items JSONB) RETURNS INT
LANGUAGE plpgsql AS $$
DECLARE
  r RECORD;
  written INT := 0;
  leased INT := 0;
  open_leases BIGINT[];
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
      JOIN "ledger_entries" h ON h."id" = s."id" AND h."created_at" = s."created_at"
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
    SELECT x.*, h."kind" AS "hold_kind", h."account_id", h."amount_microusd" AS "hold_amount", h."budgets", h."key_id", h."parent_key_id", h."project_id", h."member_id",
      h."created_at" AS "hold_at"
    FROM jsonb_to_recordset(items) AS x("hold_id" BIGINT, "charged" BIGINT, "request_id" TEXT, "note" TEXT)
    JOIN "ledger_entries" h ON h."id" = x."hold_id" AND h."created_at" = gateway_hold_time(x."hold_id", x."request_id") AND h."kind" IN ('hold', 'lease')
    WHERE x."hold_id" <> ALL(open_leases)
      AND (h."kind" = 'hold' OR x."charged" > 0)
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
      SELECT "kind", "note" INTO prior FROM "ledger_entries"
      WHERE "hold_id" = r."hold_id" AND "kind" IN ('settle', 'release') AND "created_at" >= r."hold_at";
      IF NOT FOUND THEN
        INSERT INTO "ledger_entries" ("account_id", "kind", "amount_microusd", "charged_microusd", "hold_id", "request_id", "key_id", "parent_key_id", "project_id", "member_id", "note")
        VALUES (r."account_id", CASE WHEN r."charged" IS NULL THEN 'release' ELSE 'settle' END, held - charged, charged,
          r."hold_id", r."request_id", r."key_id", r."parent_key_id", r."project_id", r."member_id", r."note");
      ELSE
        -- Already ended: only a charge after an expired hold's release is booked.
        IF charged = 0 THEN CONTINUE; END IF;
        IF prior."kind" <> 'release' OR coalesce(prior."note", '') <> 'expired' THEN CONTINUE; END IF;
        IF EXISTS (SELECT 1 FROM "ledger_entries" WHERE "hold_id" = r."hold_id" AND "kind" = 'charge' AND "created_at" >= r."hold_at") THEN CONTINUE; END IF;
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
