/**
 * How long a decision may take: the evaluation 10 s (its attempts
 * together), a question generation 15 s, both stages 25 s. The first two
 * can be set (GATEWAY_DECISIONS_EVALUATION_TIMEOUT_MS,
 * GATEWAY_DECISIONS_GENERATION_TIMEOUT_MS); each is a `Deadline`, sure to fire.
 */
export interface DecisionTimeLimits {
  evaluationMs: number;
  generationMs: number;
  totalMs: number;
}

export const DECISION_TIME_LIMITS: DecisionTimeLimits = { evaluationMs: 10_000, generationMs: 15_000, totalMs: 25_000 };
