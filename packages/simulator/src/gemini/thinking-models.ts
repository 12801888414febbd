import { type GeminiError, invalidArgument } from './errors';
import type { ThinkingConfig } from './generate-request';

/**
 * Gemini 2.5's and 3's thinking rules: which models think by default, the
 * budgets each accepts (`-1` is dynamic everywhere, `0` turns thinking off
 * where the model allows it), the levels Gemini 3 takes instead (never
 * together with a budget), and the thinking tokens a simulated answer spends.
 * Other models do not think, and ignore a thinking config.
 * @see https://ai.google.dev/gemini-api/docs/thinking#set-budget
 * @see https://ai.google.dev/gemini-api/docs/caching#implicit-caching
 */
interface ModelRules {
  thinksByDefault: boolean;
  minBudget: number;
  maxBudget: number;
  canDisable: boolean;
  /** The shortest prompt that implicit caching serves from cache. */
  minCachedPrompt: number;
  /** Gemini 3: the `thinkingLevel` values the model takes, and the thinking tokens a simulated answer spends at each. */
  levels?: Record<string, number>;
}

/** Longest prefix first, so that `gemini-2.5-flash-lite` is not read as `gemini-2.5-flash`. */
const MODEL_RULES: [prefix: string, rules: ModelRules][] = [
  ['gemini-3-pro', { thinksByDefault: true, minBudget: 128, maxBudget: 32_768, canDisable: false, minCachedPrompt: 4096, levels: { low: 300, high: 1200 } }],
  ['gemini-3-flash', { thinksByDefault: true, minBudget: 1, maxBudget: 24_576, canDisable: false, minCachedPrompt: 1024, levels: { minimal: 40, low: 300, medium: 700, high: 1200 } }],
  ['gemini-2.5-flash-lite', { thinksByDefault: false, minBudget: 512, maxBudget: 24_576, canDisable: true, minCachedPrompt: 1024 }],
  ['gemini-2.5-flash', { thinksByDefault: true, minBudget: 1, maxBudget: 24_576, canDisable: true, minCachedPrompt: 1024 }],
  ['gemini-2.5-pro', { thinksByDefault: true, minBudget: 128, maxBudget: 32_768, canDisable: false, minCachedPrompt: 4096 }],
];

const DYNAMIC_BUDGET = -1;
/** Models without rules here still cache long prompts, from Flash's minimum. */
const DEFAULT_MIN_CACHED_PROMPT = 1024;

function rulesFor(model: string): ModelRules | undefined {
  return MODEL_RULES.find(([prefix]) => model.startsWith(prefix))?.[1];
}

/** The real API's messages for a budget the model does not take. */
export function thinkingBudgetError(model: string, config: ThinkingConfig | undefined): GeminiError | undefined {
  const rules = rulesFor(model);
  const budget = config?.thinkingBudget;
  const level = config?.thinkingLevel;
  if (level !== undefined) {
    if (budget !== undefined) return invalidArgument('You can only set only one of thinking budget and thinking level.');
    if (!rules?.levels) return invalidArgument('Thinking level is not supported for this model.');
    if (!(level in rules.levels)) return invalidArgument(`Invalid value at 'generation_config.thinking_config.thinking_level', "${level}"`);
    return undefined;
  }
  if (!rules || budget === undefined || budget === DYNAMIC_BUDGET) return undefined;
  if (budget === 0) return rules.canDisable ? undefined : invalidArgument('Budget 0 is invalid. This model only works in thinking mode.');
  if (!Number.isInteger(budget) || budget < rules.minBudget || budget > rules.maxBudget) return invalidArgument(`The thinking budget (${budget}) is invalid.`);
  return undefined;
}

export function isThinking(model: string, config: ThinkingConfig | undefined): boolean {
  const rules = rulesFor(model);
  if (!rules) return false;
  const budget = config?.thinkingBudget;
  return budget === undefined || budget === DYNAMIC_BUDGET ? rules.thinksByDefault : budget > 0;
}

const BUDGET_SHARE_USED = 0.75;
const DYNAMIC_MIN_TOKENS = 200;
const DYNAMIC_SPREAD_TOKENS = 800;

/**
 * Thinking tokens before the answer: three quarters of a given budget (so
 * tests can tell budgets apart), or, with the dynamic default, an amount
 * that depends on the prompt. Zero when the model does not think.
 */
export function plannedThoughtsTokens(model: string, config: ThinkingConfig | undefined, seed: number): number {
  if (!isThinking(model, config)) return 0;
  const level = config?.thinkingLevel;
  const levelTokens = level === undefined ? undefined : rulesFor(model)?.levels?.[level];
  if (levelTokens !== undefined) return levelTokens + (seed % 100);
  const budget = config?.thinkingBudget;
  if (budget !== undefined && budget > 0) return Math.max(1, Math.round(budget * BUDGET_SHARE_USED));
  return DYNAMIC_MIN_TOKENS + (seed % DYNAMIC_SPREAD_TOKENS);
}

export function minCachedPromptTokens(model: string): number {
  return rulesFor(model)?.minCachedPrompt ?? DEFAULT_MIN_CACHED_PROMPT;
}
