-- Roll-ups of usage records: the sums spend totals read (requests, prompt and
-- completion tokens, micro-USD charged) per UTC day, and for all accounts
-- together per UTC hour too, kept apart by what totals group and filter by.
-- They are maintained in the statement that commits the records
-- (billing/usage-record-insert.ts, from the rows it really inserted) and in
-- the statement that changes a record's charge (the trigger below), so they
-- always equal the sums of the records. They are tables
-- of their own, not partitions: dropping old records keeps their sums.
-- billing/usage-rollups.ts describes the same tables to the code.

-- One key's spend; the operator's grouping by key, project (the key's) or member (the key's).
CREATE TABLE "usage_daily_by_key" (
    "key_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "account_id" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "status_code" INTEGER NOT NULL,
    "requests" BIGINT NOT NULL,
    "prompt_tokens" BIGINT NOT NULL,
    "completion_tokens" BIGINT NOT NULL,
    "amount_microusd" BIGINT NOT NULL,
    CONSTRAINT "usage_daily_by_key_pkey" PRIMARY KEY ("key_id", "day", "account_id", "model", "endpoint", "status_code")
);
CREATE INDEX "usage_daily_by_key_account_id_day_idx" ON "usage_daily_by_key"("account_id", "day");
-- Every key's rows of a day: all accounts grouped by key, and a day's rebuild.
CREATE INDEX "usage_daily_by_key_day_idx" ON "usage_daily_by_key"("day");

-- One account's spend; all accounts grouped by account.
CREATE TABLE "usage_daily_by_account" (
    "account_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "model" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "status_code" INTEGER NOT NULL,
    "requests" BIGINT NOT NULL,
    "prompt_tokens" BIGINT NOT NULL,
    "completion_tokens" BIGINT NOT NULL,
    "amount_microusd" BIGINT NOT NULL,
    CONSTRAINT "usage_daily_by_account_pkey" PRIMARY KEY ("account_id", "day", "model", "endpoint", "status_code")
);
CREATE INDEX "usage_daily_by_account_day_account_id_idx" ON "usage_daily_by_account"("day", "account_id");

-- All accounts together, per day.
CREATE TABLE "usage_daily" (
    "day" DATE NOT NULL,
    "model" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "status_code" INTEGER NOT NULL,
    "requests" BIGINT NOT NULL,
    "prompt_tokens" BIGINT NOT NULL,
    "completion_tokens" BIGINT NOT NULL,
    "amount_microusd" BIGINT NOT NULL,
    CONSTRAINT "usage_daily_pkey" PRIMARY KEY ("day", "model", "endpoint", "status_code")
);

-- All accounts together, per hour: the ends of a range that are not whole days.
CREATE TABLE "usage_hourly" (
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "model" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "status_code" INTEGER NOT NULL,
    "requests" BIGINT NOT NULL,
    "prompt_tokens" BIGINT NOT NULL,
    "completion_tokens" BIGINT NOT NULL,
    "amount_microusd" BIGINT NOT NULL,
    CONSTRAINT "usage_hourly_pkey" PRIMARY KEY ("hour", "model", "endpoint", "status_code")
);

-- A record's charge or tokens changed later (a held task charge settled or
-- refunded, a refund, a fix by hand): its groups take the difference, in
-- the statement that changed it. Only the sums are followed; a record moved
-- to another key, time, model, endpoint or status needs its days rebuilt
-- (`gateway rollups rebuild`). Row by row: such changes are rare, and come
-- from several places, SQL functions among them.
CREATE FUNCTION gateway_usage_rollups_follow_update() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
DECLARE
  d_prompt BIGINT := NEW."prompt_tokens"::BIGINT - OLD."prompt_tokens";
  d_completion BIGINT := NEW."completion_tokens"::BIGINT - OLD."completion_tokens";
  d_amount BIGINT := NEW."amount_microusd" - OLD."amount_microusd";
  d_day DATE := (NEW."created_at" AT TIME ZONE 'UTC')::date;
BEGIN
  INSERT INTO "usage_daily" AS t ("day", "model", "endpoint", "status_code", "requests", "prompt_tokens", "completion_tokens", "amount_microusd")
  VALUES (d_day, NEW."model", NEW."endpoint", NEW."status_code", 0, d_prompt, d_completion, d_amount)
  ON CONFLICT ("day", "model", "endpoint", "status_code") DO UPDATE SET "prompt_tokens" = t."prompt_tokens" + EXCLUDED."prompt_tokens",
    "completion_tokens" = t."completion_tokens" + EXCLUDED."completion_tokens", "amount_microusd" = t."amount_microusd" + EXCLUDED."amount_microusd";
  INSERT INTO "usage_hourly" AS t ("hour", "model", "endpoint", "status_code", "requests", "prompt_tokens", "completion_tokens", "amount_microusd")
  VALUES (date_trunc('hour', NEW."created_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', NEW."model", NEW."endpoint", NEW."status_code", 0, d_prompt, d_completion, d_amount)
  ON CONFLICT ("hour", "model", "endpoint", "status_code") DO UPDATE SET "prompt_tokens" = t."prompt_tokens" + EXCLUDED."prompt_tokens",
    "completion_tokens" = t."completion_tokens" + EXCLUDED."completion_tokens", "amount_microusd" = t."amount_microusd" + EXCLUDED."amount_microusd";
  INSERT INTO "usage_daily_by_account" AS t ("account_id", "day", "model", "endpoint", "status_code", "requests", "prompt_tokens", "completion_tokens", "amount_microusd")
  VALUES (NEW."account_id", d_day, NEW."model", NEW."endpoint", NEW."status_code", 0, d_prompt, d_completion, d_amount)
  ON CONFLICT ("account_id", "day", "model", "endpoint", "status_code") DO UPDATE SET "prompt_tokens" = t."prompt_tokens" + EXCLUDED."prompt_tokens",
    "completion_tokens" = t."completion_tokens" + EXCLUDED."completion_tokens", "amount_microusd" = t."amount_microusd" + EXCLUDED."amount_microusd";
  INSERT INTO "usage_daily_by_key" AS t ("key_id", "day", "account_id", "model", "endpoint", "status_code", "requests", "prompt_tokens", "completion_tokens", "amount_microusd")
  VALUES (NEW."key_id", d_day, NEW."account_id", NEW."model", NEW."endpoint", NEW."status_code", 0, d_prompt, d_completion, d_amount)
  ON CONFLICT ("key_id", "day", "account_id", "model", "endpoint", "status_code") DO UPDATE SET "prompt_tokens" = t."prompt_tokens" + EXCLUDED."prompt_tokens",
    "completion_tokens" = t."completion_tokens" + EXCLUDED."completion_tokens", "amount_microusd" = t."amount_microusd" + EXCLUDED."amount_microusd";
  RETURN NULL;
END
$$;

CREATE TRIGGER "usage_records_rollups_follow_update"
AFTER UPDATE OF "prompt_tokens", "completion_tokens", "amount_microusd" ON "usage_records"
FOR EACH ROW
WHEN ((OLD."prompt_tokens", OLD."completion_tokens", OLD."amount_microusd") IS DISTINCT FROM (NEW."prompt_tokens", NEW."completion_tokens", NEW."amount_microusd"))
EXECUTE FUNCTION gateway_usage_rollups_follow_update();

-- The records already there. Records that old instances commit after this
-- migration (a rolling upgrade) are not in these sums:
-- `gateway rollups check` finds those days and `gateway rollups rebuild` sums them again.
INSERT INTO "usage_daily_by_key" ("key_id", "day", "account_id", "model", "endpoint", "status_code", "requests", "prompt_tokens", "completion_tokens", "amount_microusd")
SELECT "key_id", ("created_at" AT TIME ZONE 'UTC')::date, "account_id", "model", "endpoint", "status_code",
       count(*), sum("prompt_tokens"), sum("completion_tokens"), sum("amount_microusd")
FROM "usage_records" GROUP BY 1, 2, 3, 4, 5, 6;

INSERT INTO "usage_daily_by_account" ("account_id", "day", "model", "endpoint", "status_code", "requests", "prompt_tokens", "completion_tokens", "amount_microusd")
SELECT "account_id", "day", "model", "endpoint", "status_code", sum("requests"), sum("prompt_tokens"), sum("completion_tokens"), sum("amount_microusd")
FROM "usage_daily_by_key" GROUP BY 1, 2, 3, 4, 5;

INSERT INTO "usage_daily" ("day", "model", "endpoint", "status_code", "requests", "prompt_tokens", "completion_tokens", "amount_microusd")
SELECT "day", "model", "endpoint", "status_code", sum("requests"), sum("prompt_tokens"), sum("completion_tokens"), sum("amount_microusd")
FROM "usage_daily_by_account" GROUP BY 1, 2, 3, 4;

INSERT INTO "usage_hourly" ("hour", "model", "endpoint", "status_code", "requests", "prompt_tokens", "completion_tokens", "amount_microusd")
SELECT date_trunc('hour', "created_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', "model", "endpoint", "status_code",
       count(*), sum("prompt_tokens"), sum("completion_tokens"), sum("amount_microusd")
FROM "usage_records" GROUP BY 1, 2, 3, 4;
