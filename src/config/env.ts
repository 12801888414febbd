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
  /** Requests in flight before new ones get 503 gateway_overloaded. */
  GATEWAY_MAX_CONCURRENCY: intFromEnv(2048),
  /** How long a verified API key is trusted before it is looked up again. */
  GATEWAY_KEY_CACHE_MS: intFromEnv(30_000),
  /** How long SIGTERM waits for requests in flight before closing them. */
  GATEWAY_SHUTDOWN_GRACE_MS: intFromEnv(30_000),
  /** Whether this instance runs the background video-task poller. */
  GATEWAY_VIDEO_POLLER: z.enum(['true', 'false', '1', '0']).default('true').transform((v) => v === 'true' || v === '1'),
  /** How long a claimed video task stays leased to the instance polling it (at least 20000). */
  GATEWAY_VIDEO_LEASE_MS: z.coerce.number().int().min(20_000, 'must be at least 20000 (twice the upstream poll time-out)').default(30_000),
  /** Pause between poller rounds when no task was due. */
  GATEWAY_VIDEO_POLL_IDLE_MS: intFromEnv(1000),
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
