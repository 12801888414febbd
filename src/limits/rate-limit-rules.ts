import { rootKeyId, type Principal } from '../keys/principal';

export type RateLimitScope = 'key' | 'account' | 'model';
/** `question_generations`: decision question generations (a limit of their own, not set by the environment). */
export type RateLimitUnit = 'requests' | 'tokens' | 'question_generations';

/** One limit that applies to one request: so many requests (or tokens) per minute for one key, account or model. */
export interface RateLimitRule {
  scope: RateLimitScope;
  unit: RateLimitUnit;
  perMinute: number;
  /** Whose counter: the key id (a temporary credential's parent key), the account id or the model id. */
  subject: string;
}

/** The limits from the environment, per key and per account (0: no limit). */
export interface RateLimitDefaults {
  keyRpm: number;
  keyTpm: number;
  accountRpm: number;
  accountTpm: number;
}

/** A model's own limits, as its catalog entry has them now. */
export interface ModelRateLimits {
  id: string;
  rpm?: number;
  tpm?: number;
}

/**
 * The limits a request is held to. Token limits are left out when the
 * request is counted in requests only (`countTokens` false: video submissions).
 */
export function applicableRules(defaults: RateLimitDefaults, principal: Principal, model: ModelRateLimits | undefined, countTokens: boolean): RateLimitRule[] {
  const rules: RateLimitRule[] = [];
  const add = (scope: RateLimitScope, unit: RateLimitUnit, perMinute: number | undefined, subject: string) => {
    if (perMinute && perMinute > 0 && (unit === 'requests' || countTokens)) rules.push({ scope, unit, perMinute, subject });
  };
  // A temporary credential's calls count against its parent key's limits.
  add('key', 'requests', defaults.keyRpm, rootKeyId(principal));
  add('key', 'tokens', defaults.keyTpm, rootKeyId(principal));
  add('account', 'requests', defaults.accountRpm, principal.accountId);
  add('account', 'tokens', defaults.accountTpm, principal.accountId);
  if (model) {
    add('model', 'requests', model.rpm, model.id);
    add('model', 'tokens', model.tpm, model.id);
  }
  return rules;
}

/** How a refusal names the limit: "requests per minute of this API key". */
export function describeRule(rule: RateLimitRule): string {
  const whose = rule.scope === 'key' ? 'this API key' : rule.scope === 'account' ? "this key's account" : `model "${rule.subject}"`;
  return `${rule.unit.replace('_', ' ')} per minute of ${whose} (limit ${rule.perMinute})`;
}
