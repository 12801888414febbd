import type { Redis } from 'ioredis';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { GatewayError } from '../errors/gateway-error';
import { rootKeyId, type Principal } from '../keys/principal';
import type { Logger } from '../observability/logger';
import type { GatewayMetrics } from '../observability/metrics';
import { LimiterPool, type Limiter } from './limiter-pool';
import { rateLimitHeaders, retryAfterSeconds, type LimitState } from './rate-limit-headers';
import { applicableRules, describeRule, type ModelRateLimits, type RateLimitDefaults, type RateLimitRule } from './rate-limit-rules';
import { estimateTokens, tokenCorrection, type LimitedEndpoint } from './token-estimate';

export interface RateLimitsOptions {
  defaults: RateLimitDefaults;
  /** The model's limits as the catalog has them now (the catalog is replaced at runtime). */
  modelLimits: (name: string) => ModelRateLimits | undefined;
  /** Counts across instances when given; per process otherwise. */
  redis?: Redis;
  redisPrefix: string;
  /** Redis unreachable: `open` counts per process (and warns), `closed` refuses with 503. */
  whenRedisDown: 'open' | 'closed';
  logger: Logger;
  metrics: GatewayMetrics;
}

export interface RateLimitRequest {
  principal: Principal;
  endpoint: LimitedEndpoint;
  /** The model the body names, if any (route policies have no limits of their own). */
  model: string | undefined;
  body: unknown;
}

/** A request's pass through the limits: the headers to send, and a refusal or the correction to make later. */
export interface Admission {
  headers: Record<string, string>;
  refusal?: GatewayError;
  /** Once the usage record is settled: the real token count replaces the estimate in the token limits. */
  settle(actualTokens: number): void;
}

/** One limit as this request counted it. */
interface Counted {
  rule: RateLimitRule;
  points: number;
  limiter: Limiter;
  res: RateLimiterRes;
  over: boolean;
  /** Redis did not answer: counted per process instead (open mode), or not counted (closed: `limiter` is unused). */
  redisFailed: boolean;
  counted: boolean;
  windowEndsAt: number;
}

/**
 * Requests and tokens per minute, per API key, per account and per model,
 * with rate-limiter-flexible: in Redis (global across instances) when
 * REDIS_URL is set, in this process otherwise. A request is counted once,
 * when it is admitted: one request, and its estimated tokens
 * (token-estimate.ts), corrected when its usage record is settled. A
 * refused request gives back what it counted, so refusals cost nothing.
 * A request no limit applies to makes no Redis call at all.
 */
export class RateLimits {
  private readonly pool: LimiterPool;
  private lastWarning = 0;

  constructor(private readonly opts: RateLimitsOptions) {
    this.pool = new LimiterPool(opts.redis, opts.redisPrefix);
  }

  async admit(req: RateLimitRequest): Promise<Admission | undefined> {
    const model = req.model ? this.opts.modelLimits(req.model) : undefined;
    const rules = applicableRules(this.opts.defaults, req.principal, model, req.endpoint !== 'videos');
    if (!rules.length) return undefined;
    const estimate = rules.some((r) => r.unit === 'tokens') ? estimateTokens(req.endpoint, req.body) : 0;
    return this.admitRules(rules, estimate);
  }

  /**
   * Decision question generation: at most `perMinute` generations per key
   * and per account (2 by the spec), counted like every other limit (Redis
   * across instances when configured). Resolves with the refusal to throw,
   * or undefined when the generation may run.
   */
  async admitQuestionGeneration(principal: Principal, perMinute: number): Promise<GatewayError | undefined> {
    const admission = await this.admitRules([
      { scope: 'key', unit: 'question_generations', perMinute, subject: rootKeyId(principal) },
      { scope: 'account', unit: 'question_generations', perMinute, subject: principal.accountId },
    ], 0);
    return admission.refusal;
  }

  private async admitRules(rules: RateLimitRule[], estimate: number): Promise<Admission> {
    // All limits at once: with Redis they leave in one pipelined write (one round trip).
    const counted = await Promise.all(rules.map((rule) => this.count(rule, rule.unit === 'tokens' ? estimate : 1)));
    const headers = rateLimitHeaders(counted.filter((c) => c.counted).map((c): LimitState => ({ rule: c.rule, remaining: c.res.remainingPoints, msBeforeReset: c.res.msBeforeNext })));

    if (counted.some((c) => c.redisFailed)) this.redisUnavailable();
    const over = counted.filter((c) => c.over);
    if (over.length || (this.opts.whenRedisDown === 'closed' && counted.some((c) => c.redisFailed))) {
      this.giveBack(counted);
      if (!over.length) {
        return { headers, settle: () => {}, refusal: new GatewayError('rate_limit_unavailable', 'Rate limits cannot be checked: Redis is unreachable and the gateway is set to fail closed (GATEWAY_RATE_LIMIT_REDIS_DOWN=closed). Retry in a moment.', { retryAfterSeconds: 1 }) };
      }
      return { headers: { ...headers, ...this.retryHeaders(over) }, settle: () => {}, refusal: this.refusal(over, estimate) };
    }

    return {
      headers,
      settle: (actualTokens) => {
        const difference = tokenCorrection(estimate, actualTokens);
        if (!difference) return;
        const now = Date.now();
        for (const c of counted) {
          // A window that has ended counts no more; correcting the next one would charge the wrong minute.
          if (c.rule.unit !== 'tokens' || !c.counted || now >= c.windowEndsAt) continue;
          const done = difference > 0 ? c.limiter.penalty(c.rule.subject, difference) : c.limiter.reward(c.rule.subject, -difference);
          done.catch((err: unknown) => this.warn('a token limit could not be corrected after the request; the estimate stays counted', err));
        }
      },
    };
  }

  private async count(rule: RateLimitRule, points: number): Promise<Counted> {
    const shared = this.pool.shared(rule);
    if (shared) {
      try {
        return this.counted(rule, points, shared, await shared.consume(rule.subject, points), false, false);
      } catch (err) {
        if (err instanceof RateLimiterRes) return this.counted(rule, points, shared, err, true, false);
        if (this.opts.whenRedisDown === 'closed') return { rule, points, limiter: shared, res: new RateLimiterRes(), over: false, redisFailed: true, counted: false, windowEndsAt: 0 };
      }
    }
    const local = this.pool.local(rule);
    try {
      return this.counted(rule, points, local, await local.consume(rule.subject, points), false, Boolean(shared));
    } catch (err) {
      if (err instanceof RateLimiterRes) return this.counted(rule, points, local, err, true, Boolean(shared));
      throw err;
    }
  }

  private counted(rule: RateLimitRule, points: number, limiter: Limiter, res: RateLimiterRes, over: boolean, redisFailed: boolean): Counted {
    return { rule, points, limiter, res, over, redisFailed, counted: true, windowEndsAt: Date.now() + res.msBeforeNext };
  }

  /** A refused request costs nothing: what it counted is given back (after the answer; not awaited). */
  private giveBack(counted: Counted[]): void {
    for (const c of counted) {
      if (c.counted && c.points > 0) c.limiter.reward(c.rule.subject, c.points).catch((err: unknown) => this.warn('a refused request could not give back what it counted', err));
    }
  }

  private retryHeaders(over: Counted[]): Record<string, string> {
    const waitMs = Math.max(...over.map((c) => c.res.msBeforeNext));
    return { 'retry-after': String(retryAfterSeconds(waitMs)), 'retry-after-ms': String(Math.max(1, Math.ceil(waitMs))) };
  }

  private refusal(over: Counted[], estimate: number): GatewayError {
    // The limit that keeps the request out longest is the one to name.
    const worst = over.reduce((a, b) => (b.res.msBeforeNext > a.res.msBeforeNext ? b : a));
    const waitSeconds = retryAfterSeconds(worst.res.msBeforeNext);
    const details = { scope: worst.rule.scope, unit: worst.rule.unit, limit: worst.rule.perMinute, reset_seconds: waitSeconds };
    if (worst.rule.unit === 'tokens' && estimate > worst.rule.perMinute) {
      return new GatewayError('rate_limit_exceeded', `This request alone is estimated at ${estimate} tokens, more than the ${describeRule(worst.rule)}. Lower max_tokens (or shorten the prompt), or ask the operator for a higher limit.`, { details, retryAfterSeconds: waitSeconds });
    }
    return new GatewayError('rate_limit_exceeded', `Rate limit reached for ${describeRule(worst.rule)}; it resets in ${waitSeconds} s. Retry after Retry-After, or ask the operator for a higher limit.`, { details, retryAfterSeconds: waitSeconds });
  }

  private redisUnavailable(): void {
    this.opts.metrics.rateLimitUnavailable.inc();
    this.warn(this.opts.whenRedisDown === 'open'
      ? 'Redis for rate limits is unreachable: limits are counted per instance until it is back (GATEWAY_RATE_LIMIT_REDIS_DOWN=open)'
      : 'Redis for rate limits is unreachable: limited requests are refused with 503 until it is back (GATEWAY_RATE_LIMIT_REDIS_DOWN=closed)');
  }

  /** Once a minute at most: an outage must not flood the log. */
  private warn(message: string, err?: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < 60_000) return;
    this.lastWarning = now;
    this.opts.logger.warn(message, err ? { reason: err instanceof Error ? err.message : String(err) } : {});
  }
}
