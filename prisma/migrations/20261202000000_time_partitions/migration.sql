-- The tables that grow with traffic (usage_records, ledger_entries,
-- stored_responses) become range-partitioned by "created_at", one partition
-- per calendar month (UTC), named <table>_YYYY_MM, plus a DEFAULT partition
-- (<table>_default) that takes a row no month partition holds. The gateway
-- creates the partitions of the coming months ahead (and moves rows found
-- in the default partition into their month's), and drops whole partitions
-- past their retention (GATEWAY_*_RETENTION_DAYS): no row-by-row DELETE.
--
-- Each table is rewritten: the old one is renamed, a partitioned one made
-- under the old name, every row copied, the old one dropped. A partitioned
-- table's primary key holds the partition key, so the keys become
-- (id, created_at); a request id says the time it was made (UUIDv7-style
-- hex), so a look-up by id reaches its month alone.
--
-- Usage records get leaner on the way: the JSON a record keeps (measurement,
-- dimensions, line items, routing, provider usage, the route that served it,
-- search, decision and MCP details) is split into its structure, kept once in
-- "usage_shapes", and its figures (numbers, and the free-text strings of
-- provider usage, search, decision and MCP), kept in the row as one JSON array.
-- The log id, the currency and the total tokens, which the record's other
-- columns already say, are no longer stored. Refunds of a record are kept
-- as their amounts ("refunds") instead of line items appended to the JSON.

-- 1. Partition upkeep --------------------------------------------------------

-- The month partition of `p_table` that holds `p_at` (UTC months), made when
-- missing: as a plain table first, into which the rows of that month still in
-- the DEFAULT partition are moved, then attached. Serialised across
-- instances by an advisory lock. Returns the partition's name when it made
-- it, NULL when it existed.
CREATE FUNCTION gateway_ensure_month_partition(p_table TEXT, p_at TIMESTAMPTZ) RETURNS TEXT
LANGUAGE plpgsql AS $$
DECLARE
  month_start TIMESTAMP := date_trunc('month', p_at AT TIME ZONE 'UTC');
  lo TIMESTAMPTZ := month_start AT TIME ZONE 'UTC';
  hi TIMESTAMPTZ := (month_start + interval '1 month') AT TIME ZONE 'UTC';
  part TEXT := p_table || '_' || to_char(month_start, 'YYYY_MM');
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('gateway_time_partitions'));
  IF to_regclass(quote_ident(part)) IS NOT NULL THEN RETURN NULL; END IF;
  EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS)', part, p_table);
  IF to_regclass(quote_ident(p_table || '_default')) IS NOT NULL THEN
    EXECUTE format('WITH "moved" AS (DELETE FROM %I WHERE "created_at" >= $1 AND "created_at" < $2 RETURNING *) INSERT INTO %I SELECT * FROM "moved"',
      p_table || '_default', part) USING lo, hi;
  END IF;
  EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', p_table, part, lo, hi);
  RETURN part;
END
$$;

-- Partitions dropped for retention: what each held, until when.
CREATE TABLE "dropped_partitions" (
    "partition" TEXT NOT NULL,
    "table_name" TEXT NOT NULL,
    -- The end (exclusive) of the partition's month: every row it held was older.
    "through" TIMESTAMPTZ(3) NOT NULL,
    "rows" BIGINT NOT NULL,
    "dropped_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dropped_partitions_pkey" PRIMARY KEY ("partition", "dropped_at")
);

-- What each account's ledger entries in a dropped ledger partition added up
-- to, written in the drop's transaction: a wallet's balance is these sums
-- plus its entries still kept, so the reconcile stays exact after a drop.
CREATE TABLE "ledger_checkpoints" (
    "id" BIGSERIAL NOT NULL,
    "account_id" TEXT NOT NULL,
    "partition" TEXT NOT NULL,
    "through" TIMESTAMPTZ(3) NOT NULL,
    "entries" BIGINT NOT NULL,
    "amount_microusd" BIGINT NOT NULL,
    "charged_microusd" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_checkpoints_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "ledger_checkpoints_account_id_idx" ON "ledger_checkpoints"("account_id");

-- The same for budgets: what the holds of a dropped partition spent, per
-- budget period (their settles, late charges and refunds, wherever kept).
CREATE TABLE "budget_checkpoints" (
    "id" BIGSERIAL NOT NULL,
    "budget_id" TEXT NOT NULL,
    "period_start" TIMESTAMPTZ(3) NOT NULL,
    "partition" TEXT NOT NULL,
    "spent_microusd" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "budget_checkpoints_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "budget_checkpoints_budget_id_idx" ON "budget_checkpoints"("budget_id", "period_start");

-- Drops one month partition of a time-partitioned table, whole, unless
-- something in it is still in use: a usage record whose task charge is
-- still held; a ledger hold or lease not ended yet; a stored response not
-- expired.
-- A ledger partition's sums per account and per budget period are written
-- to the checkpoints first, in the same transaction. Returns 'dropped', or
-- why it was kept. Waits at most half a second for the table's lock (a
-- running report holds it): kept then, and tried again by the next round.
CREATE FUNCTION gateway_drop_month_partition(p_table TEXT, p_partition TEXT) RETURNS TEXT
LANGUAGE plpgsql AS $$
DECLARE
  bound TEXT;
  through TIMESTAMPTZ;
  n BIGINT;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('gateway_time_partitions'));
  SELECT pg_get_expr(c."relpartbound", c."oid") INTO bound
  FROM pg_inherits i JOIN pg_class c ON c."oid" = i."inhrelid"
  WHERE i."inhparent" = to_regclass(quote_ident(p_table)) AND c."relname" = p_partition;
  IF bound IS NULL OR bound = 'DEFAULT' THEN RETURN 'not a month partition of ' || p_table; END IF;
  through := substring(bound from 'TO \(''([^'']+)''\)')::timestamptz;
  PERFORM set_config('lock_timeout', '500ms', true);
  EXECUTE format('LOCK TABLE %I IN SHARE MODE', p_partition);
  IF p_table = 'usage_records' THEN
    EXECUTE format('SELECT count(*) FROM %I WHERE "billing_state" = ''held''', p_partition) INTO n;
    IF n > 0 THEN RETURN n || ' task charges still held'; END IF;
  ELSIF p_table = 'ledger_entries' THEN
    EXECUTE format('SELECT count(*) FROM %I h WHERE (h."kind" = ''hold'' AND NOT EXISTS '
      '(SELECT 1 FROM "ledger_entries" e WHERE e."hold_id" = h."id" AND e."kind" IN (''settle'', ''release'') AND e."created_at" >= h."created_at")) '
      'OR (h."kind" = ''lease'' AND EXISTS (SELECT 1 FROM "spend_leases" l WHERE l."id" = h."id" AND l."ended_at" IS NULL))', p_partition) INTO n;
    IF n > 0 THEN RETURN n || ' holds or leases not ended yet'; END IF;
    EXECUTE format('INSERT INTO "ledger_checkpoints" ("account_id", "partition", "through", "entries", "amount_microusd", "charged_microusd") '
      'SELECT "account_id", $1, $2, count(*), sum("amount_microusd"), sum("charged_microusd") FROM %I GROUP BY "account_id"', p_partition)
      USING p_partition, through;
    EXECUTE format('INSERT INTO "budget_checkpoints" ("budget_id", "period_start", "partition", "spent_microusd") '
      'SELECT c->>0, (c->>1)::timestamptz, $1, sum(s."spent") FROM %I h '
      'CROSS JOIN LATERAL jsonb_array_elements(h."budgets") AS c '
      'CROSS JOIN LATERAL (SELECT coalesce(sum(e."charged_microusd"), 0) AS "spent" FROM "ledger_entries" e '
      '  WHERE e."hold_id" = h."id" AND e."kind" IN (''settle'', ''charge'', ''refund'') AND e."created_at" >= h."created_at") s '
      'WHERE h."kind" IN (''hold'', ''lease'') AND h."budgets" IS NOT NULL GROUP BY 1, 2', p_partition)
      USING p_partition;
  ELSIF p_table = 'stored_responses' THEN
    EXECUTE format('SELECT count(*) FROM %I WHERE "expires_at" > now()', p_partition) INTO n;
    IF n > 0 THEN RETURN n || ' responses not expired yet'; END IF;
  ELSE
    RETURN 'no retention for ' || p_table;
  END IF;
  EXECUTE format('SELECT count(*) FROM %I', p_partition) INTO n;
  EXECUTE format('DROP TABLE %I', p_partition);
  INSERT INTO "dropped_partitions" ("partition", "table_name", "through", "rows") VALUES (p_partition, p_table, through, n);
  RETURN 'dropped';
END
$$;

-- The time in a time-ordered id (`req_` and UUIDv7-style hex: the first 12
-- hex digits are milliseconds since the epoch); NULL for an id without one.
CREATE FUNCTION gateway_id_time(p_id TEXT) RETURNS TIMESTAMPTZ
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN p_id ~ '^[A-Za-z]+_[0-9a-f]{12}7[0-9a-f]{3}[89ab][0-9a-f]{15}$'
    THEN to_timestamp(('x' || lpad(substring(p_id from '_([0-9a-f]{12})'), 16, '0'))::bit(64)::bigint / 1000.0) END
$$;

-- 2. Stored responses ----------------------------------------------------------

ALTER TABLE "stored_responses" RENAME TO "stored_responses_unpartitioned";
ALTER TABLE "stored_responses_unpartitioned" RENAME CONSTRAINT "stored_responses_pkey" TO "stored_responses_unpartitioned_pkey";
ALTER INDEX "stored_responses_expires_at_idx" RENAME TO "stored_responses_unpartitioned_expires_at_idx";

CREATE TABLE "stored_responses" (
    "id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "key_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "previous_response_id" TEXT,
    "provider" TEXT NOT NULL,
    "upstream_response_id" TEXT,
    "input" JSONB NOT NULL,
    "response" JSONB NOT NULL,

    CONSTRAINT "stored_responses_pkey" PRIMARY KEY ("id", "created_at")
) PARTITION BY RANGE ("created_at");
CREATE INDEX "stored_responses_expires_at_idx" ON "stored_responses"("expires_at");
CREATE TABLE "stored_responses_default" PARTITION OF "stored_responses" DEFAULT;

-- 3. The ledger ------------------------------------------------------------

ALTER TABLE "ledger_entries" RENAME TO "ledger_entries_unpartitioned";
ALTER TABLE "ledger_entries_unpartitioned" RENAME CONSTRAINT "ledger_entries_pkey" TO "ledger_entries_unpartitioned_pkey";
ALTER INDEX "ledger_entries_hold_end_key" RENAME TO "ledger_entries_unpartitioned_hold_end_key";
ALTER INDEX "ledger_entries_account_id_idx" RENAME TO "ledger_entries_unpartitioned_account_id_idx";
ALTER INDEX "ledger_entries_request_id_idx" RENAME TO "ledger_entries_unpartitioned_request_id_idx";
ALTER INDEX "ledger_entries_holds_created_at_idx" RENAME TO "ledger_entries_unpartitioned_holds_created_at_idx";
ALTER INDEX "ledger_entries_lease_return_key" RENAME TO "ledger_entries_unpartitioned_lease_return_key";
-- The ids go on from the same sequence, so the ledger's cursor (an entry id) keeps its order.
ALTER SEQUENCE "ledger_entries_id_seq" OWNED BY NONE;

CREATE TABLE "ledger_entries" (
    "id" BIGINT NOT NULL DEFAULT nextval('ledger_entries_id_seq'),
    "account_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "amount_microusd" BIGINT NOT NULL,
    "charged_microusd" BIGINT NOT NULL DEFAULT 0,
    "hold_id" BIGINT,
    "request_id" TEXT,
    "key_id" TEXT,
    "parent_key_id" TEXT,
    "project_id" TEXT,
    "member_id" TEXT,
    "budgets" JSONB,
    "note" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "related_request_id" TEXT,

    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id", "created_at")
) PARTITION BY RANGE ("created_at");
CREATE TABLE "ledger_entries_default" PARTITION OF "ledger_entries" DEFAULT;

-- 4. Usage records ---------------------------------------------------------

ALTER TABLE "usage_records" RENAME TO "usage_records_unpartitioned";
ALTER TABLE "usage_records_unpartitioned" RENAME CONSTRAINT "usage_records_pkey" TO "usage_records_unpartitioned_pkey";
ALTER INDEX "usage_records_key_id_created_at_id_idx" RENAME TO "usage_records_unpartitioned_key_idx";
ALTER INDEX "usage_records_account_id_created_at_idx" RENAME TO "usage_records_unpartitioned_account_idx";
ALTER INDEX "usage_records_held_idx" RENAME TO "usage_records_unpartitioned_held_idx";
ALTER INDEX "usage_records_hold_id_idx" RENAME TO "usage_records_unpartitioned_hold_id_idx";

-- The structure of the JSON parts of usage records; each record names one
-- and keeps its figures. Rows are never updated or removed.
CREATE TABLE "usage_shapes" (
    "id" SERIAL NOT NULL,
    -- SHA-256 (hex) of the skeleton.
    "digest" TEXT NOT NULL,
    -- JSON: the parts with each figure replaced by "\u0001<n>", its place in the record's figures.
    "skeleton" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "usage_shapes_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "usage_shapes_digest_key" ON "usage_shapes"("digest");

-- Fixed-width columns first, so that no row pays for alignment padding.
CREATE TABLE "usage_records" (
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "amount_microusd" BIGINT NOT NULL,
    "held_microusd" BIGINT,
    "hold_id" BIGINT,
    "settled_at" TIMESTAMPTZ(3),
    "status_code" INTEGER NOT NULL,
    "prompt_tokens" INTEGER NOT NULL,
    "completion_tokens" INTEGER NOT NULL,
    "pricing_version" INTEGER NOT NULL,
    "shape_id" INTEGER NOT NULL,
    "id" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "billing_state" TEXT NOT NULL DEFAULT 'final',
    "task_id" TEXT,
    "error_code" TEXT,
    "delivery" TEXT,
    "parent_key_id" TEXT,
    "figures" JSON NOT NULL,
    -- The amounts refunded, in order; each reads as a `refund` line item.
    "refunds" JSON
) PARTITION BY RANGE ("created_at");
CREATE TABLE "usage_records_default" PARTITION OF "usage_records" DEFAULT;

-- 5. The month partitions: every month with rows, and this month and the next two.

DO $$
DECLARE
  m TIMESTAMPTZ;
BEGIN
  FOR m IN
    SELECT DISTINCT date_trunc('month', t AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' FROM (
      SELECT "created_at" AS t FROM "usage_records_unpartitioned"
      UNION SELECT "created_at" FROM "ledger_entries_unpartitioned"
      UNION SELECT "created_at" FROM "stored_responses_unpartitioned"
      UNION SELECT now() + (n || ' months')::interval FROM generate_series(0, 2) n
    ) AS times
  LOOP
    PERFORM gateway_ensure_month_partition('usage_records', m);
    PERFORM gateway_ensure_month_partition('ledger_entries', m);
    PERFORM gateway_ensure_month_partition('stored_responses', m);
  END LOOP;
END
$$;

-- 6. The rows ----------------------------------------------------------------

INSERT INTO "stored_responses" SELECT "id", "created_at", "expires_at", "key_id", "account_id", "previous_response_id", "provider", "upstream_response_id", "input", "response"
FROM "stored_responses_unpartitioned";
DROP TABLE "stored_responses_unpartitioned";

INSERT INTO "ledger_entries" ("id", "account_id", "kind", "amount_microusd", "charged_microusd", "hold_id", "request_id", "key_id", "parent_key_id", "project_id", "member_id", "budgets", "note", "created_at", "related_request_id")
SELECT "id", "account_id", "kind", "amount_microusd", "charged_microusd", "hold_id", "request_id", "key_id", "parent_key_id", "project_id", "member_id", "budgets", "note", "created_at", "related_request_id"
FROM "ledger_entries_unpartitioned";
DROP TABLE "ledger_entries_unpartitioned";
ALTER SEQUENCE "ledger_entries_id_seq" OWNED BY "ledger_entries"."id";

-- A JSON value split into its skeleton and its figures: every number, and
-- every string unless `keep_strings` (a string starting with U+0001 is always
-- a figure, so that the marker is never ambiguous), is appended to `figures`
-- and replaced by "\u0001<its index>". The gateway's own encoder
-- (billing/usage-record-figures.ts) does the same.
CREATE FUNCTION gateway_split_figures(v JSONB, keep_strings BOOLEAN, INOUT figures JSONB, OUT skeleton JSONB)
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  k TEXT;
  e JSONB;
  sub RECORD;
BEGIN
  CASE jsonb_typeof(v)
    WHEN 'object' THEN
      skeleton := '{}'::jsonb;
      FOR k, e IN SELECT * FROM jsonb_each(v) LOOP
        sub := gateway_split_figures(e, keep_strings, figures);
        figures := sub.figures;
        skeleton := skeleton || jsonb_build_object(k, sub.skeleton);
      END LOOP;
    WHEN 'array' THEN
      skeleton := '[]'::jsonb;
      FOR e IN SELECT * FROM jsonb_array_elements(v) LOOP
        sub := gateway_split_figures(e, keep_strings, figures);
        figures := sub.figures;
        skeleton := skeleton || jsonb_build_array(sub.skeleton);
      END LOOP;
    WHEN 'number' THEN
      skeleton := to_jsonb(chr(1) || jsonb_array_length(figures));
      figures := figures || jsonb_build_array(v);
    WHEN 'string' THEN
      IF keep_strings AND left(v #>> '{}', 1) <> chr(1) THEN
        skeleton := v;
      ELSE
        skeleton := to_jsonb(chr(1) || jsonb_array_length(figures));
        figures := figures || jsonb_build_array(v);
      END IF;
    ELSE
      skeleton := v;
  END CASE;
END
$$;

-- The parts of a record, in order, and whether each keeps its strings in the skeleton.
CREATE FUNCTION gateway_record_parts(OUT name TEXT, OUT keep_strings BOOLEAN) RETURNS SETOF RECORD
LANGUAGE sql IMMUTABLE AS $$
  SELECT * FROM unnest(
    ARRAY['measurement', 'dimensions', 'line_items', 'routing', 'served_by', 'provider_usage', 'search', 'decision', 'mcp'],
    ARRAY[TRUE, TRUE, TRUE, TRUE, TRUE, FALSE, FALSE, FALSE, FALSE])
$$;

-- A record's parts in the gateway's order, the strings of the gateway's own
-- parts kept (they name catalog things), those of the upstream's and the
-- client's made figures: its skeleton (as JSON text).
CREATE FUNCTION gateway_split_record(p_parts JSONB) RETURNS TEXT
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  part TEXT;
  keep BOOLEAN;
  sub RECORD;
  acc JSONB := '[]'::jsonb;
  out_parts TEXT[] := ARRAY[]::TEXT[];
BEGIN
  FOR part, keep IN SELECT * FROM gateway_record_parts() LOOP
    sub := gateway_split_figures(coalesce(p_parts->part, 'null'::jsonb), keep, acc);
    acc := sub.figures;
    out_parts := out_parts || (to_json(part)::text || ':' || sub.skeleton::text);
  END LOOP;
  RETURN '{' || array_to_string(out_parts, ',') || '}';
END
$$;

-- The same split in bulk, without a function call per JSON node (which costs
-- about half a millisecond a record): a record's figures are the values
-- `$.**` visits, in the same order (jsonpath, in C), and records whose parts
-- have the same text once digits are taken out, and the same strings, have
-- the same skeleton (the JSON text is canonical, so a number can only be
-- where the text has none), which is split once, from one of them.
CREATE FUNCTION gateway_record_fingerprint(p_parts JSONB) RETURNS TEXT
LANGUAGE sql IMMUTABLE AS $$
  SELECT md5(translate(p_parts::text, '0123456789', '') || jsonb_path_query_array(p_parts, 'strict $.** ? (@.type() == "string")')::text)
$$;

CREATE FUNCTION gateway_record_figures(p_parts JSONB) RETURNS JSONB
LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_path_query_array(jsonb_build_array(p_parts->'measurement', p_parts->'dimensions', p_parts->'line_items', p_parts->'routing', p_parts->'served_by'),
      'strict $.** ? (@.type() == "number" || (@.type() == "string" && @ starts with "\u0001"))')
    || jsonb_path_query_array(jsonb_build_array(p_parts->'provider_usage', p_parts->'search', p_parts->'decision', p_parts->'mcp'),
      'strict $.** ? (@.type() == "number" || @.type() == "string")')
$$;

-- A record's parts as the gateway reads them; refunds, which gateway_refund
-- appended as line items, are kept apart ("refunds").
CREATE FUNCTION gateway_record_parts_of(u "usage_records_unpartitioned") RETURNS JSONB
LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_build_object(
    'measurement', u."measurement", 'dimensions', u."dimensions",
    'line_items', (SELECT coalesce(jsonb_agg(li ORDER BY n), '[]'::jsonb) FROM jsonb_array_elements(u."line_items") WITH ORDINALITY AS x(li, n) WHERE li->>'dimension' IS DISTINCT FROM 'refund'),
    'routing', u."routing", 'served_by', u."served_by", 'provider_usage', u."provider_usage", 'search', u."search", 'decision', u."decision", 'mcp', u."mcp")
$$;

CREATE TEMPORARY TABLE "usage_record_figures" ON COMMIT DROP AS
SELECT u."id", gateway_record_fingerprint(p."parts") AS "fingerprint", gateway_record_figures(p."parts") AS "figures",
  (SELECT json_agg(-(li->>'amount_microusd')::bigint) FROM jsonb_array_elements(u."line_items") li WHERE li->>'dimension' = 'refund') AS "refunds"
FROM "usage_records_unpartitioned" u
CROSS JOIN LATERAL (SELECT gateway_record_parts_of(u) AS "parts" OFFSET 0) p;

CREATE TEMPORARY TABLE "usage_fingerprint_shapes" ON COMMIT DROP AS
SELECT f."fingerprint", gateway_split_record(gateway_record_parts_of(u)) AS "skeleton"
FROM (SELECT DISTINCT ON ("fingerprint") "fingerprint", "id" FROM "usage_record_figures") f
JOIN "usage_records_unpartitioned" u ON u."id" = f."id";

INSERT INTO "usage_shapes" ("digest", "skeleton")
SELECT DISTINCT encode(sha256(convert_to("skeleton", 'UTF8')), 'hex'), "skeleton" FROM "usage_fingerprint_shapes";

INSERT INTO "usage_records" ("created_at", "amount_microusd", "held_microusd", "hold_id", "settled_at", "status_code", "prompt_tokens", "completion_tokens",
  "pricing_version", "shape_id", "id", "key_id", "account_id", "model", "endpoint", "billing_state", "task_id", "error_code", "delivery", "parent_key_id", "figures", "refunds")
SELECT u."created_at", u."amount_microusd", u."held_microusd", u."hold_id", u."settled_at", u."status_code", u."prompt_tokens", u."completion_tokens",
  u."pricing_version", s."id", u."id", u."key_id", u."account_id", u."model", u."endpoint", u."billing_state", u."task_id", u."error_code", u."delivery", u."parent_key_id",
  f."figures"::text::json, f."refunds"
FROM "usage_records_unpartitioned" u
JOIN "usage_record_figures" f ON f."id" = u."id"
JOIN "usage_fingerprint_shapes" k ON k."fingerprint" = f."fingerprint"
JOIN "usage_shapes" s ON s."digest" = encode(sha256(convert_to(k."skeleton", 'UTF8')), 'hex');
DROP FUNCTION gateway_record_parts_of("usage_records_unpartitioned");
DROP TABLE "usage_records_unpartitioned";
DROP FUNCTION gateway_record_figures(JSONB);
DROP FUNCTION gateway_record_fingerprint(JSONB);
DROP FUNCTION gateway_split_record(JSONB);
DROP FUNCTION gateway_record_parts();
DROP FUNCTION gateway_split_figures(JSONB, BOOLEAN, JSONB);

-- 7. Keys and indexes, built once the rows are in -----------------------------

ALTER TABLE "usage_records" ADD CONSTRAINT "usage_records_pkey" PRIMARY KEY ("id", "created_at");
CREATE INDEX "usage_records_key_id_created_at_id_idx" ON "usage_records"("key_id", "created_at" DESC, "id" DESC);
CREATE INDEX "usage_records_account_id_created_at_idx" ON "usage_records"("account_id", "created_at");
CREATE INDEX "usage_records_held_idx" ON "usage_records"("task_id") WHERE "billing_state" = 'held';
CREATE INDEX "usage_records_hold_id_idx" ON "usage_records"("hold_id") WHERE "hold_id" IS NOT NULL;

CREATE INDEX "ledger_entries_account_id_idx" ON "ledger_entries"("account_id", "id" DESC);
CREATE INDEX "ledger_entries_request_id_idx" ON "ledger_entries"("request_id");
CREATE INDEX "ledger_entries_holds_created_at_idx" ON "ledger_entries"("created_at") WHERE "kind" = 'hold';
-- What followed a hold or a lease (its end, charges, refunds, the lease's
-- return). A partitioned table has no unique index without its partition
-- key: a hold is ended at most once because gateway_end_holds checks under
-- the account's wallet lock, which every end takes; a lease is given back
-- at most once because gateway_end_leases ends only a lease row it locked
-- while open.
CREATE INDEX "ledger_entries_hold_id_idx" ON "ledger_entries"("hold_id") WHERE "hold_id" IS NOT NULL;

-- 8. The ledger's functions on the partitioned tables ---------------------------

-- When hold (or lease) `p_hold` was placed: looked for within a day of its
-- request's time first (a hold is placed by its request: one month's
-- partition, or two), then everywhere (a lease outlives the calls charged
-- inside it; ids made before carry no time).
CREATE FUNCTION gateway_hold_time(p_hold BIGINT, p_request TEXT) RETURNS TIMESTAMPTZ
LANGUAGE plpgsql STABLE AS $$
DECLARE
  at TIMESTAMPTZ := gateway_id_time(p_request);
  placed TIMESTAMPTZ;
BEGIN
  IF at IS NOT NULL THEN
    SELECT "created_at" INTO placed FROM "ledger_entries"
    WHERE "id" = p_hold AND "created_at" >= at - interval '1 day' AND "created_at" < at + interval '1 day';
    IF FOUND THEN RETURN placed; END IF;
  END IF;
  SELECT "created_at" INTO placed FROM "ledger_entries" WHERE "id" = p_hold;
  RETURN placed;
END
$$;

-- As before (spend_leases): ends holds, each at most once, a late charge
-- after an expired hold's release or its lease's end booked as a `charge`,
-- and charges inside open leases. A hold is looked up in its own month
-- (gateway_hold_time), what ended it only from the hold's time on. Without
-- a unique index over the partitions, that a hold is not ended twice rests
-- on the account's wallet lock: every end of the account's holds takes it
-- first, so the check below sees any end committed before.
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
    SELECT x.*, h."kind" AS "hold_kind", h."account_id", h."amount_microusd" AS "hold_amount", h."budgets", h."key_id", h."parent_key_id", h."project_id", h."member_id",
      h."created_at" AS "hold_at"
    FROM jsonb_to_recordset(items) AS x("hold_id" BIGINT, "charged" BIGINT, "request_id" TEXT, "note" TEXT)
    JOIN "ledger_entries" h ON h."id" = x."hold_id" AND h."created_at" = gateway_hold_time(x."hold_id", x."request_id") AND h."kind" IN ('hold', 'lease')
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

-- As before (spend_leases), with the record's refund kept in "refunds", and
-- the hold (and the record) looked up in their request's month.
CREATE OR REPLACE FUNCTION gateway_refund(p_request TEXT, p_amount BIGINT, p_note TEXT, p_related TEXT DEFAULT NULL) RETURNS BIGINT
LANGUAGE plpgsql AS $$
DECLARE
  hold RECORD;
  charged BIGINT;
  amount BIGINT;
  entry BIGINT;
  at TIMESTAMPTZ := gateway_id_time(p_request);
BEGIN
  SELECT h."id", h."account_id", h."key_id", h."parent_key_id", h."project_id", h."member_id", h."created_at" INTO hold
  FROM "ledger_entries" h WHERE h."request_id" = p_request AND h."kind" = 'hold'
    AND h."created_at" >= coalesce(at - interval '1 day', '-infinity') AND h."created_at" < coalesce(at + interval '1 day', 'infinity')
  ORDER BY h."id" LIMIT 1;
  IF NOT FOUND THEN
    SELECT l."id", c."account_id", c."key_id", c."parent_key_id", c."project_id", c."member_id", l."created_at" INTO hold
    FROM "ledger_entries" c JOIN "ledger_entries" l ON l."id" = c."hold_id" AND l."kind" = 'lease'
    WHERE c."request_id" = p_request AND c."kind" = 'charge' ORDER BY c."id" LIMIT 1;
    IF NOT FOUND THEN RAISE EXCEPTION 'nothing_to_refund' USING ERRCODE = 'P0001'; END IF;
  END IF;
  PERFORM 1 FROM "wallets" WHERE "account_id" = hold."account_id" FOR UPDATE;
  SELECT coalesce(sum("charged_microusd"), 0) INTO charged FROM "ledger_entries"
  WHERE "request_id" = p_request AND "hold_id" = hold."id" AND "kind" IN ('settle', 'charge', 'refund') AND "created_at" >= hold."created_at";
  IF charged <= 0 THEN RAISE EXCEPTION 'nothing_to_refund' USING ERRCODE = 'P0001'; END IF;
  amount := coalesce(p_amount, charged);
  IF amount > charged THEN RAISE EXCEPTION 'refund_too_large:%', charged USING ERRCODE = 'P0001'; END IF;
  INSERT INTO "ledger_entries" ("account_id", "kind", "amount_microusd", "charged_microusd", "hold_id", "request_id", "key_id", "parent_key_id", "project_id", "member_id", "note", "related_request_id")
  VALUES (hold."account_id", 'refund', amount, -amount, hold."id", p_request, hold."key_id", hold."parent_key_id", hold."project_id", hold."member_id", p_note, p_related)
  RETURNING "id" INTO entry;
  UPDATE "wallets" SET "balance_microusd" = "balance_microusd" + amount, "updated_at" = now() WHERE "account_id" = hold."account_id";
  UPDATE "budget_usage" bu SET "spent_microusd" = bu."spent_microusd" - amount
  FROM "ledger_entries" h, jsonb_array_elements(h."budgets") AS c
  WHERE h."id" = hold."id" AND h."created_at" = hold."created_at" AND bu."budget_id" = c->>0 AND bu."period_start" = (c->>1)::timestamptz;
  UPDATE "usage_records" SET
    "amount_microusd" = "amount_microusd" - amount,
    "refunds" = (coalesce("refunds"::jsonb, '[]'::jsonb) || to_jsonb(amount))::json,
    "billing_state" = CASE WHEN "amount_microusd" - amount = 0 THEN 'refunded' ELSE "billing_state" END
  WHERE "id" = p_request
    AND "created_at" >= coalesce(at - interval '1 hour', '-infinity') AND "created_at" < coalesce(at + interval '1 hour', 'infinity');
  RETURN entry;
END
$$;

-- As before (decision_stages), with the record's refund kept in "refunds".
CREATE OR REPLACE FUNCTION gateway_refund_record(p_request TEXT) RETURNS BIGINT
LANGUAGE plpgsql AS $$
DECLARE
  amount BIGINT;
  at TIMESTAMPTZ := gateway_id_time(p_request);
  record_at TIMESTAMPTZ;
BEGIN
  SELECT "amount_microusd", "created_at" INTO amount, record_at FROM "usage_records"
  WHERE "id" = p_request
    AND "created_at" >= coalesce(at - interval '1 hour', '-infinity') AND "created_at" < coalesce(at + interval '1 hour', 'infinity')
  FOR UPDATE;
  IF NOT FOUND OR amount <= 0 THEN RETURN 0; END IF;
  UPDATE "usage_records" SET
    "amount_microusd" = 0,
    "refunds" = (coalesce("refunds"::jsonb, '[]'::jsonb) || to_jsonb(amount))::json,
    "billing_state" = 'refunded'
  WHERE "id" = p_request AND "created_at" = record_at;
  RETURN amount;
END
$$;
