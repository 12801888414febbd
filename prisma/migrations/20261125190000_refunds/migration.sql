-- Refunds of settled charges: money back to the original wallet and key, as
-- one `refund` ledger entry, with the request's usage record lowered by the
-- same amount in the same transaction (a `refund` line item), so that the
-- ledger's charges and the usage records keep agreeing.

-- Refunds `p_amount` (NULL: all that is left) of the request's charge.
-- Returns the refund entry's id, or raises `nothing_to_refund` (the request
-- has no settled charge left, or none under spend control) or
-- `refund_too_large` (more than is left).
CREATE FUNCTION gateway_refund(p_request TEXT, p_amount BIGINT, p_note TEXT) RETURNS BIGINT
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
  INSERT INTO "ledger_entries" ("account_id", "kind", "amount_microusd", "charged_microusd", "hold_id", "request_id", "key_id", "parent_key_id", "project_id", "member_id", "note")
  VALUES (hold."account_id", 'refund', amount, -amount, hold."id", p_request, hold."key_id", hold."parent_key_id", hold."project_id", hold."member_id", p_note)
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
