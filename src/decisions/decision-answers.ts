import { parseJsonOrUndefined } from '../providers/parse-json';
import { UpstreamError } from '../providers/upstream-error';
import { answerChoices, answerField } from './answer-schema';
import type { DecisionQuestion, DecisionQuestions } from './decision-questions';
import { nestedStringOffsets } from './json-value-offsets';
import { distributionAt, readTokenLogprobs, type TokenLogprobs } from './logprob-distribution';

/** Where an answer's probabilities came from: the upstream's token log-probabilities, or the numbers the model wrote. */
export type ProbabilitySource = 'logprobs' | 'model';

export type DecisionAnswer = Record<string, unknown> & (
  | { type: 'noul'; answer: 'yes' | 'no'; probability: number; confidence: number; probability_source: ProbabilitySource }
  | { type: 'choice'; option: string; probabilities: Record<string, number>; confidence: number; probability_source: ProbabilitySource }
  | { type: 'score'; level: number; level_description: string; distribution: number[]; confidence: number; probability_source: ProbabilitySource }
);

/** The fields the answer schema asks for; anything else the model added is kept as it came. */
const SCHEMA_FIELDS = new Set(['answer', 'option', 'level', 'probability', 'probabilities', 'distribution', 'confidence']);

/**
 * Reads the model's structured answer. Probabilities come from the token
 * log-probabilities at each answer's value when the upstream returned them
 * and they tell the alternatives apart (see `distributionAt`), otherwise
 * from the numbers the model wrote (normalised). The confidence is the
 * probability of the chosen answer under the log-probabilities, or the
 * model's own `confidence`. An answer that is not the schema's (not JSON,
 * a question missing, a value outside the choices) is an upstream failure,
 * retryable: a second attempt may do better.
 */
export function readAnswers(content: string, logprobs: unknown, questions: DecisionQuestions): Record<string, DecisionAnswer> {
  const parsed = parseJsonOrUndefined(content);
  if (!isObject(parsed)) throw malformed('the decision model did not answer with a JSON object');
  const tokens = readTokenLogprobs(logprobs);
  const offsets = tokens ? nestedStringOffsets(content) : new Map<string, number>();
  const out: Record<string, DecisionAnswer> = {};
  for (const [id, question] of Object.entries(questions)) {
    const raw = parsed[id];
    if (!isObject(raw)) throw malformed(`the decision model gave no answer to question "${id}"`);
    const field = answerField(question);
    const choices = answerChoices(question);
    const chosen = raw[field];
    const index = typeof chosen === 'string' ? choices.indexOf(chosen) : -1;
    if (index < 0) throw malformed(`the decision model's ${field} for question "${id}" is not one of ${choices.slice(0, 10).join(', ')}${choices.length > 10 ? ', ...' : ''}`);
    const offset = offsets.get(`${id}\u0000${field}`);
    const fromLogprobs = tokens && offset !== undefined ? distributionAt(tokens, content, offset, choices) : undefined;
    const distribution = fromLogprobs ?? modelDistribution(question, raw, index);
    const confidence = fromLogprobs ? fromLogprobs[index]! : unit(raw.confidence) ?? distribution[index]!;
    out[id] = answerOf(question, raw, index, distribution, confidence, fromLogprobs ? 'logprobs' : 'model');
  }
  return out;
}

function answerOf(question: DecisionQuestion, raw: Record<string, unknown>, index: number, distribution: number[], confidence: number, source: ProbabilitySource): DecisionAnswer {
  const extra = Object.fromEntries(Object.entries(raw).filter(([k]) => !SCHEMA_FIELDS.has(k)));
  const common = { confidence: round(confidence), probability_source: source };
  if (question.type === 'noul') return { ...extra, type: 'noul', answer: index === 0 ? 'yes' : 'no', probability: round(distribution[0]!), ...common };
  if (question.type === 'choice') {
    const ids = Object.keys(question.criteria);
    return { ...extra, type: 'choice', option: ids[index]!, probabilities: Object.fromEntries(ids.map((o, i) => [o, round(distribution[i]!)])), ...common };
  }
  return { ...extra, type: 'score', level: index + 1, level_description: question.criteria[index]!, distribution: distribution.map(round), ...common };
}

/** The model's own numbers, normalised; a one-hot on its answer when they are missing or unusable. */
function modelDistribution(question: DecisionQuestion, raw: Record<string, unknown>, index: number): number[] {
  const n = answerChoices(question).length;
  let values: Array<number | undefined>;
  if (question.type === 'noul') {
    const p = unit(raw.probability);
    values = p === undefined ? [] : [p, 1 - p];
  } else if (question.type === 'choice') {
    const given = isObject(raw.probabilities) ? raw.probabilities : {};
    values = Object.keys(question.criteria).map((o) => unit(given[o]));
  } else {
    values = Array.isArray(raw.distribution) && raw.distribution.length === n ? raw.distribution.map(unit) : [];
  }
  const total = values.reduce<number>((sum, v) => sum + (v ?? 0), 0);
  if (values.length !== n || values.some((v) => v === undefined) || !(total > 0)) return Array.from({ length: n }, (_, i) => (i === index ? 1 : 0));
  return values.map((v) => v! / total);
}

function unit(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1 ? value : undefined;
}

/** Six decimals: enough for any use, and stable in JSON. */
function round(p: number): number {
  return Math.round(p * 1e6) / 1e6;
}

function malformed(message: string): UpstreamError {
  return new UpstreamError(message, { status: 502, retryable: true, cause: 'malformed_answer' });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export type { TokenLogprobs };
