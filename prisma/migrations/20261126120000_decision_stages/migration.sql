-- Decisions: each stage of a decision request (question generation, then
-- evaluation) has its own usage record, which names its stage, the prompt
-- version it used and the other stage's record.
ALTER TABLE "usage_records" ADD COLUMN "decision" JSONB;

-- A refund the gateway makes itself (unusable generated questions) names the
-- request it was made for beside the one it refunds.
ALTER TABLE "ledger_entries" ADD COLUMN "related_request_id" TEXT;

DROP FUNCTION gateway_refund(TEXT, BIGINT, TEXT);

-- As before (a settled charge back to its wallet, key and budgets, and the
-- record lowered by a refund line item), with the related request kept on
-- the refund entry.
CREATE FUNCTION gateway_refund(p_request TEXT, p_amount BIGINT, p_note TEXT, p_related TEXT DEFAULT NULL) RETURNS BIGINT
LANGUAGE plpgsql AS $$
DECLARE
  hold RECORD;
  charged BIGINT;
  amount BIGINT;
  entry BIGINT;
BEGIN
  SELECT h."id", h."account_id", h."key_id", h."parent_key_id", h."project_id", h."member_id" INTO hold
  FROM "ledger_entries" h WHERE h."request_id" = p_request AND h."kind" = 'hold' ORDER BY h."id" LIMIT 1;
  IF NOT FOUND THEN RAISE EXCEPTION 'nothing_to_refund' USING ERRCODE = 'P0001'; END IF;
  PERFORM 1 FROM "wallets" WHERE "account_id" = hold."account_id" FOR UPDATE;
  SELECT coalesce(sum("charged_microusd"), 0) INTO charged FROM "ledger_entries"
  WHERE "hold_id" = hold."id" AND "kind" IN ('settle', 'charge', 'refund');
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

-- The same refund for an account without a wallet (not under spend control):
-- there is no wallet or ledger to give back to, so the record alone is
-- lowered to zero by a refund line item. Returns the amount given back
-- (0 when nothing was charged, or it was refunded already).
CREATE FUNCTION gateway_refund_record(p_request TEXT) RETURNS BIGINT
LANGUAGE plpgsql AS $$
DECLARE
  amount BIGINT;
BEGIN
  SELECT "amount_microusd" INTO amount FROM "usage_records" WHERE "id" = p_request FOR UPDATE;
  IF NOT FOUND OR amount <= 0 THEN RETURN 0; END IF;
  UPDATE "usage_records" SET
    "amount_microusd" = 0,
    "line_items" = "line_items" || jsonb_build_array(jsonb_build_object('dimension', 'refund', 'quantity', 1, 'unit_microusd', -amount, 'amount_microusd', -amount)),
    "billing_state" = 'refunded'
  WHERE "id" = p_request;
  RETURN amount;
END
$$;
