import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RLWrapperTimeouts, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateLimitRule } from './rate-limit-rules';

/** Every limit counts a fixed one-minute window, from the first request counted in it. */
export const WINDOW_SECONDS = 60;

/** Longest a rate-limit check waits for Redis before it is treated as down: a limit must never hang a request. */
export const REDIS_TIMEOUT_MS = 100;

/** What the pool hands out: rate-limiter-flexible's limiter API (consume, penalty, reward). */
export type Limiter = Pick<RateLimiterAbstract, 'consume' | 'penalty' | 'reward'>;

/**
 * rate-limiter-flexible limiters, one per (scope, unit, limit), made on first
 * use: a model's limit comes from the catalog at request time, so a new
 * value simply gets a new limiter. The Redis counters are named by scope,
 * unit and subject only, so a changed limit keeps counting the same minute
 * across instances; the per-process ones start afresh.
 */
export class LimiterPool {
  private readonly sharedLimiters = new Map<string, Limiter>();
  private readonly localLimiters = new Map<string, Limiter>();

  constructor(
    private readonly redis: Redis | undefined,
    private readonly redisPrefix: string,
  ) {}

  /** The limiter that counts across instances (Redis, bounded by REDIS_TIMEOUT_MS), or undefined without Redis. */
  shared(rule: RateLimitRule): Limiter | undefined {
    if (!this.redis) return undefined;
    const id = limiterId(rule);
    let limiter = this.sharedLimiters.get(id);
    if (!limiter) {
      const redisLimiter = new RateLimiterRedis({
        storeClient: this.redis,
        keyPrefix: `${this.redisPrefix}:${rule.scope}:${rule.unit}`,
        points: rule.perMinute,
        duration: WINDOW_SECONDS,
        // Not connected: fail at once rather than queue the command.
        rejectIfRedisNotReady: true,
      });
      limiter = new RLWrapperTimeouts({ limiter: redisLimiter, timeoutMs: REDIS_TIMEOUT_MS });
      this.sharedLimiters.set(id, limiter);
    }
    return limiter;
  }

  /** The per-process limiter: the only one without Redis, the insurance while Redis is down (open mode). */
  local(rule: RateLimitRule): Limiter {
    const id = limiterId(rule);
    let limiter = this.localLimiters.get(id);
    if (!limiter) {
      limiter = new RateLimiterMemory({ keyPrefix: `${rule.scope}:${rule.unit}`, points: rule.perMinute, duration: WINDOW_SECONDS });
      this.localLimiters.set(id, limiter);
    }
    return limiter;
  }
}

function limiterId(rule: RateLimitRule): string {
  return `${rule.scope}:${rule.unit}:${rule.perMinute}`;
}
