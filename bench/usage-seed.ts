import type { Client } from 'pg';
import { progress } from './progress';

/** The shape of the seeded traffic (BENCH_ROLLUP_* in spend-totals-bench.ts). */
export interface UsageSeed {
  records: number;
  days: number;
  accounts: number;
  keys: number;
  /** The last record's time; the first is `days` before it. */
  end: Date;
}

/** Twenty model names; each key has one it mostly uses (70 % of its calls). */
export const SEED_MODELS = [
  'gpt-4.1', 'gpt-4.1-mini', 'gpt-4o', 'gpt-4o-mini', 'o3', 'o4-mini', 'claude-sonnet-4', 'claude-opus-4', 'claude-haiku-3.5', 'gemini-2.5-pro',
  'gemini-2.5-flash', 'llama-3.3-70b', 'mistral-large', 'deepseek-v3', 'text-embedding-3-small', 'text-embedding-3-large', 'gemini-embedding', 'grok-3',
  'command-r', 'video-gen',
];

const CHUNK = 500_000;

/** Key `k` belongs to account `k % accounts`; its id is `key_<k>`. */
export function seedKeyId(k: number): string {
  return `key_${k}`;
}

export function seedAccountId(k: number, seed: UsageSeed): string {
  return `acct_${k % seed.accounts}`;
}

/**
 * Accounts with three projects and five members each, and the keys spread
 * over them (a quarter without a member), in plain INSERT … SELECT.
 */
export async function seedKeys(client: Client, seed: UsageSeed): Promise<void> {
  await client.query(`INSERT INTO "accounts" ("id", "name") SELECT 'acct_' || a, 'account ' || a FROM generate_series(0, $1 - 1) a`, [seed.accounts]);
  await client.query(`INSERT INTO "projects" ("id", "account_id", "name") SELECT 'proj_' || a || '_' || p, 'acct_' || a, 'project ' || p FROM generate_series(0, $1 - 1) a, generate_series(0, 2) p`, [seed.accounts]);
  await client.query(`INSERT INTO "members" ("id", "account_id", "name") SELECT 'mem_' || a || '_' || m, 'acct_' || a, 'member ' || m FROM generate_series(0, $1 - 1) a, generate_series(0, 4) m`, [seed.accounts]);
  await client.query(
    `INSERT INTO "api_keys" ("id", "account_id", "project_id", "member_id", "name", "key_hash", "key_prefix")
     SELECT 'key_' || k, 'acct_' || (k % $2), 'proj_' || (k % $2) || '_' || ((k / $2) % 3),
            CASE WHEN k % 4 = 0 THEN NULL ELSE 'mem_' || (k % $2) || '_' || ((k / $2) % 5) END,
            'key ' || k, 'bench_hash_' || k, 'sk-gw-bench'
     FROM generate_series(0, $1 - 1) k`,
    [seed.keys, seed.accounts],
  );
}

/**
 * `seed.records` usage records in time order over `seed.days` (as a
 * gateway writes them), in chunks of half a million with progress. Keys are
 * skewed (a few busy ones, a long tail: key = keys × u², u uniform), so are
 * accounts; models follow the key; endpoints the model; 6 % of calls fail,
 * uncharged. The secondary indexes of `usage_records` are dropped for the
 * load and built again after it, as they were.
 */
export async function seedUsageRecords(client: Client, seed: UsageSeed): Promise<void> {
  const { rows: indexes } = await client.query<{ name: string; definition: string }>(
    `SELECT indexname AS "name", indexdef AS "definition" FROM pg_indexes WHERE tablename = 'usage_records' AND indexname <> 'usage_records_pkey'`,
  );
  for (const index of indexes) await client.query(`DROP INDEX "${index.name}"`);
  await client.query('SET synchronous_commit = off');
  const stepMs = (seed.days * 86_400_000) / seed.records;
  const startMs = seed.end.getTime() - seed.days * 86_400_000;
  const started = performance.now();
  for (let lo = 0; lo < seed.records; lo += CHUNK) {
    const hi = Math.min(seed.records, lo + CHUNK) - 1;
    await client.query(INSERT_RECORDS_SQL, [lo, hi, seed.keys, seed.accounts, startMs, stepMs, SEED_MODELS]);
    const done = hi + 1;
    const seconds = (performance.now() - started) / 1000;
    progress(`seeded ${done.toLocaleString('en-US')} of ${seed.records.toLocaleString('en-US')} usage records (${Math.round(done / seconds).toLocaleString('en-US')}/s, ${Math.round(((seed.records - done) * seconds) / done)} s to go)`);
  }
  for (const index of indexes) {
    progress(`building ${index.name}`);
    await client.query(index.definition);
  }
  await client.query('ANALYZE "usage_records"');
}

const INSERT_RECORDS_SQL = `
INSERT INTO "usage_records" ("id", "key_id", "account_id", "created_at", "model", "endpoint", "status_code", "prompt_tokens", "completion_tokens",
  "total_tokens", "dimensions", "currency", "amount_microusd", "pricing_version", "line_items", "provider_usage", "log_id")
SELECT 'req_bench_' || i, 'key_' || k, 'acct_' || (k % $4), to_timestamp(($5 + (i + r_time) * $6) / 1000.0), ($7::text[])[m + 1],
  CASE WHEN m BETWEEN 14 AND 16 THEN '/v1/embeddings'
       WHEN m = 19 THEN '/v1/videos'
       WHEN m BETWEEN 6 AND 8 AND r_endpoint < 0.5 THEN '/v1/messages'
       WHEN r_endpoint < 0.2 THEN '/v1/responses'
       ELSE '/v1/chat/completions' END,
  status, prompt, completion, prompt + completion, '[]', 'USD',
  CASE WHEN status < 400 THEN prompt::bigint * (m + 1) + completion::bigint * 4 * (m + 1) ELSE 0 END,
  1, '[]', '{"family":"bench","raw_fields":{}}', 'log_bench_' || i
FROM (
  SELECT i, r_time, k, r_endpoint,
    CASE WHEN r_model < 0.7 THEN (k * 7) % 20 ELSE floor(r_other_model * 20)::int END AS m,
    CASE WHEN r_status < 0.94 THEN 200 WHEN r_status < 0.97 THEN 429 WHEN r_status < 0.985 THEN 400 WHEN r_status < 0.995 THEN 502 ELSE 499 END AS status,
    floor(r_prompt * 4000)::int AS prompt,
    CASE WHEN r_status < 0.94 THEN floor(r_completion * 1000)::int ELSE 0 END AS completion
  FROM (
    SELECT i, random() AS r_time, floor($3 * power(random(), 2))::int AS k, random() AS r_model, random() AS r_other_model,
      random() AS r_status, random() AS r_endpoint, random() AS r_prompt, random() AS r_completion
    FROM generate_series($1::bigint, $2::bigint) AS i
  ) AS draws
) AS g`;
