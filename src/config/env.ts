import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from './load-config';

const intFromEnv = (fallback: number) => z.coerce.number().int().nonnegative().default(fallback);

const envSchema = z.object({
  PORT: intFromEnv(8080),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional().or(z.literal('').transform(() => undefined)),
  GATEWAY_DATA_DIR: z.string().default('data'),
  GATEWAY_ADMIN_TOKEN: z.string().min(16, 'use at least 16 characters').optional().or(z.literal('').transform(() => undefined)),
  REDIS_URL: z.string().optional().or(z.literal('').transform(() => undefined)),
  /** Largest JSON request body accepted, in bytes. */
  GATEWAY_MAX_BODY_BYTES: intFromEnv(20 * 1024 * 1024),
  /** Largest GraphQL request body accepted over HTTP, in bytes (after decompression). */
  GATEWAY_GRAPHQL_MAX_BODY_BYTES: intFromEnv(1024 * 1024),
  /** Whether GraphQL answers introspection (`__schema`, `__type`); every operation needs an API key either way. */
  GATEWAY_GRAPHQL_INTROSPECTION: z.enum(['true', 'false', '1', '0']).default('true').transform((v) => v === 'true' || v === '1'),
  /** GraphQL operations one API key may keep open over graphql-ws (on one instance). */
  GATEWAY_MAX_SUBSCRIPTIONS_PER_KEY: intFromEnv(64),
  /** Requests in flight before new ones get 503 gateway_overloaded. */
  GATEWAY_MAX_CONCURRENCY: intFromEnv(2048),
  /** Invalid API keys one client address may send a minute (each may cost a lookup) before its keys go unchecked, 429 (0: no limit). */
  GATEWAY_AUTH_FAILURES_PER_MINUTE: intFromEnv(30),
  /** How long a verified API key is trusted before it is looked up again. */
  GATEWAY_KEY_CACHE_MS: intFromEnv(30_000),
  /** How long SIGTERM waits for requests in flight before closing them. */
  GATEWAY_SHUTDOWN_GRACE_MS: intFromEnv(30_000),
  /** After the grace period, how long shutdown waits for usage records to commit before it spools the rest to disk. */
  GATEWAY_SHUTDOWN_FLUSH_MS: intFromEnv(10_000),
  /** PostgreSQL: longest a statement may run, a lock may be waited for, and a connection may take to open. */
  GATEWAY_DB_STATEMENT_TIMEOUT_MS: intFromEnv(10_000),
  GATEWAY_DB_LOCK_TIMEOUT_MS: intFromEnv(2_000),
  GATEWAY_DB_CONNECT_TIMEOUT_MS: intFromEnv(5_000),
  /** PostgreSQL: the hot path's fixed statements are prepared once per connection; `false` behind a pooler in transaction mode that cannot keep them. */
  GATEWAY_DB_PREPARED_STATEMENTS: z.enum(['true', 'false', '1', '0']).default('true').transform((v) => v === 'true' || v === '1'),
  /** Whether this instance runs the background video-task poller. */
  GATEWAY_VIDEO_POLLER: z.enum(['true', 'false', '1', '0']).default('true').transform((v) => v === 'true' || v === '1'),
  /** How long a claimed video task stays leased to the instance polling it (at least 20000). */
  GATEWAY_VIDEO_LEASE_MS: z.coerce.number().int().min(20_000, 'must be at least 20000 (twice the upstream poll time-out)').default(30_000),
  /** Pause between poller rounds when no task was due. */
  GATEWAY_VIDEO_POLL_IDLE_MS: intFromEnv(1000),
  /** When set, /readyz and /metrics are served on this port only (and /healthz on both), not on the public one. */
  GATEWAY_OPS_PORT: z.literal('').transform(() => undefined).or(z.coerce.number().int().nonnegative().optional()),
  GATEWAY_OPS_HOST: z.string().default('127.0.0.1'),
  /** The gateway's address as its clients reach it (`https://gateway.example.com`), for the MCP resource metadata; unset: read from each request's Host. */
  GATEWAY_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional().or(z.literal('').transform(() => undefined)),
  /** Web origins (`https://app.example.com`, comma-separated) whose pages may call `/mcp`, beside the gateway's own. */
  GATEWAY_MCP_ALLOWED_ORIGINS: z.string().default('').transform((v) => v.split(',').map((o) => o.trim().replace(/\/+$/, '').toLowerCase()).filter(Boolean)),
  /** Without GATEWAY_OPS_PORT: the bearer token /metrics on the public port asks for (the admin token is taken too). */
  GATEWAY_METRICS_TOKEN: z.string().min(16, 'use at least 16 characters').optional().or(z.literal('').transform(() => undefined)),
  /** PostgreSQL: how often an instance looks for a catalog revision another instance stored (0: never). */
  GATEWAY_CATALOG_POLL_MS: intFromEnv(2000),
  /** Where uploaded files are kept: `local` (GATEWAY_DATA_DIR/files) or `s3` (GATEWAY_S3_*). */
  GATEWAY_FILE_STORAGE: z.enum(['local', 's3']).default('local'),
  /** Largest upload per purpose, in bytes (512 MB for user_data, 20 MB for vision). */
  GATEWAY_FILE_MAX_USER_DATA_BYTES: z.coerce.number().int().positive().default(512 * 1024 * 1024),
  GATEWAY_FILE_MAX_VISION_BYTES: z.coerce.number().int().positive().default(20 * 1024 * 1024),
  /** How long an uploaded file is kept before the sweep removes it. */
  GATEWAY_FILE_RETENTION_DAYS: z.coerce.number().positive().default(30),
  /**
   * Bytes of files named by id in Responses calls that one instance sends upstream at once (their stored size);
   * a call that would pass it is refused with 503 `file_dereference_busy`. At least 64 MB, one call's limit.
   */
  GATEWAY_FILE_DEREFERENCE_MAX_BYTES: z.coerce.number().int().min(64 * 1024 * 1024, 'must be at least 67108864 (64 MB): the files of one Responses call may add up to that').default(256 * 1024 * 1024),
  /** Spend control: an open hold older than this whose request wrote no usage record (its instance stopped) is released. */
  GATEWAY_HOLD_EXPIRY_MS: z.coerce.number().int().min(60_000, 'must be at least 60000: longer than any call may run').default(3_600_000),
  /** Spend control: hot callers' holds are taken from leases of the account's wallet and budgets, in memory (`off`: every hold is one database round trip). */
  GATEWAY_SPEND_LEASES: z.enum(['on', 'off']).default('on'),
  /** Spend control: a lease's expiry, renewed while its instance lives; a dead instance's lease is given back this long after its last renewal. */
  GATEWAY_SPEND_LEASE_TTL_MS: z.coerce.number().int().min(2_000, 'must be at least 2000: leases are renewed at half of it').default(30_000),
  /** How often this instance sweeps expired and deleted files (0: never). */
  GATEWAY_FILE_SWEEP_MS: intFromEnv(300_000),
  GATEWAY_S3_BUCKET: z.string().optional().or(z.literal('').transform(() => undefined)),
  /** An S3-compatible endpoint (MinIO, R2, ...); unset for AWS itself. */
  GATEWAY_S3_ENDPOINT: z.string().url().optional().or(z.literal('').transform(() => undefined)),
  GATEWAY_S3_REGION: z.string().default('us-east-1'),
  GATEWAY_S3_FORCE_PATH_STYLE: z.enum(['true', 'false', '1', '0']).default('false').transform((v) => v === 'true' || v === '1'),
  /** Prefix of the object keys, so one bucket can hold other things too. */
  GATEWAY_S3_KEY_PREFIX: z.string().default('files/'),
  /** Rate limits per API key and per account, per minute (0: no limit); per model in the catalog (`rate_limits`). */
  GATEWAY_RATE_LIMIT_KEY_RPM: intFromEnv(0),
  GATEWAY_RATE_LIMIT_KEY_TPM: intFromEnv(0),
  GATEWAY_RATE_LIMIT_ACCOUNT_RPM: intFromEnv(0),
  GATEWAY_RATE_LIMIT_ACCOUNT_TPM: intFromEnv(0),
  /** With REDIS_URL, when Redis cannot count: `open` (count per process, warn) or `closed` (503 rate_limit_unavailable). */
  GATEWAY_RATE_LIMIT_REDIS_DOWN: z.enum(['open', 'closed']).default('open'),
  /** Prefix of the rate-limit counters in Redis, so several gateways (or tests) can share one Redis. */
  GATEWAY_RATE_LIMIT_REDIS_PREFIX: z.string().min(1).default('gateway:ratelimit'),
  /** The decisions endpoint and its question generation (both off by default; they win over the config file's `decisions`). */
  GATEWAY_DECISIONS_ENABLED: z.enum(['true', 'false', '1', '0', '']).optional(),
  GATEWAY_DECISIONS_QUESTION_GENERATION: z.enum(['true', 'false', '1', '0', '']).optional(),
  /** The platform's default generator model for decision questions. */
  GATEWAY_DECISIONS_GENERATOR_MODEL: z.string().optional(),
  /** How long a decision's evaluation (its attempts together) and a question generation may take, in ms. */
  GATEWAY_DECISIONS_EVALUATION_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  GATEWAY_DECISIONS_GENERATION_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  /** How long the gateway keeps a stored response (`POST /v1/responses` without `store: false` on a native route) before the sweep removes it. */
  GATEWAY_RESPONSES_RETENTION_DAYS: z.coerce.number().positive().default(30),
  /**
   * How long usage records and ledger entries are kept, in days (unset: kept for ever). Whole months past it are
   * dropped (DROP of their partition, never row by row); the ledger's sums per account go to its checkpoints first.
   */
  GATEWAY_USAGE_RETENTION_DAYS: z.literal('').transform(() => undefined).or(z.coerce.number().int().positive().optional()),
  GATEWAY_LEDGER_RETENTION_DAYS: z.literal('').transform(() => undefined).or(z.coerce.number().int().positive().optional()),
  /** Let native `/v1/responses` upstreams store responses as the client asks (`store`); off: `store` goes up false. */
  GATEWAY_RESPONSES_UPSTREAM_STORE: z.enum(['true', 'false', '1', '0']).default('false').transform((v) => v === 'true' || v === '1'),
  SIMULATOR_PORT: intFromEnv(0),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** One structured log line per request. */
  LOG_REQUESTS: z.enum(['true', 'false', '1', '0']).default('true').transform((v) => v === 'true' || v === '1'),
});

export type GatewayEnv = z.infer<typeof envSchema> & { dataDir: string };

export function readEnv(env: NodeJS.ProcessEnv): GatewayEnv {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new ConfigError(`invalid environment:\n${lines}`);
  }
  return { ...parsed.data, dataDir: path.resolve(parsed.data.GATEWAY_DATA_DIR) };
}
