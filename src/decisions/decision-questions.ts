import { GatewayError } from '../errors/gateway-error';

export type QuestionKind = 'noul' | 'choice' | 'score';

/** A question as checked: `criteria` kept exactly as given (JSON inside its strings untouched). */
export type DecisionQuestion =
  | { type: 'noul'; instructions: string }
  | { type: 'choice'; instructions: string; criteria: Record<string, string> }
  | { type: 'score'; instructions: string; criteria: string[] };

export type DecisionQuestions = Record<string, DecisionQuestion>;

export const QUESTION_LIMITS = {
  minQuestions: 1,
  maxQuestions: 64,
  minOptions: 2,
  maxOptions: 255,
  minLevels: 2,
  maxLevels: 10,
  maxInstructionChars: 8_000,
  maxCriterionChars: 2_000,
  maxOptionIdChars: 128,
};

/** Question ids: unique ASCII of letters, digits, `_`, `.` and `-`. */
const QUESTION_ID = /^[A-Za-z0-9_.-]{1,128}$/;

/** What a model takes: how many questions, and of which kinds. */
export interface QuestionPolicy {
  maxQuestions: number;
  kinds: readonly QuestionKind[];
}

/**
 * Checks a question set (explicit, or generated and turned into the same
 * shape), each problem a 400 `invalid_question` naming the field
 * (`questions.q1.criteria`): 1 to 64 questions (or fewer, as the model
 * says), ids of letters, digits, `_`, `.`, `-`; `noul` takes no criteria,
 * `choice` 2 to 255 options (option id -> description), `score` 2 to 10
 * ordered levels. Strings are kept exactly as given, JSON inside them too.
 */
export function readQuestions(raw: Record<string, unknown>, policy: QuestionPolicy, field = 'questions'): DecisionQuestions {
  const ids = Object.keys(raw);
  const most = Math.min(QUESTION_LIMITS.maxQuestions, policy.maxQuestions);
  if (ids.length < QUESTION_LIMITS.minQuestions) throw invalid(field, `must hold at least ${QUESTION_LIMITS.minQuestions} question.`);
  if (ids.length > most) throw invalid(field, `holds ${ids.length} questions; at most ${most} are taken per request. Split them over several requests.`, { count: ids.length, max: most });
  const out: DecisionQuestions = {};
  for (const id of ids) {
    if (!QUESTION_ID.test(id)) throw invalid(`${field}.${id}`, 'is not a valid question id: use 1 to 128 ASCII letters, digits, "_", "." or "-".');
    out[id] = readQuestion(raw[id], policy, `${field}.${id}`);
  }
  return out;
}

function readQuestion(raw: unknown, policy: QuestionPolicy, at: string): DecisionQuestion {
  if (!isObject(raw)) throw invalid(at, 'must be an object with "type", "instructions" and, for choice and score, "criteria".');
  const extra = Object.keys(raw).filter((k) => k !== 'type' && k !== 'instructions' && k !== 'criteria');
  if (extra.length) throw invalid(`${at}.${extra[0]}`, 'is not a question field; a question has "type", "instructions" and "criteria".');
  const { type, instructions, criteria } = raw;
  if (type !== 'noul' && type !== 'choice' && type !== 'score') throw invalid(`${at}.type`, 'must be "noul", "choice" or "score".');
  if (!policy.kinds.includes(type)) throw invalid(`${at}.type`, `"${type}" questions are not answered by this model; it takes ${policy.kinds.join(', ')}.`);
  if (typeof instructions !== 'string' || !instructions.trim()) throw invalid(`${at}.instructions`, 'must be a non-empty string.');
  if (instructions.length > QUESTION_LIMITS.maxInstructionChars) throw invalid(`${at}.instructions`, `must be at most ${QUESTION_LIMITS.maxInstructionChars} characters.`);
  if (type === 'noul') {
    if (criteria !== undefined) throw invalid(`${at}.criteria`, 'must be left out: a noul question is answered with a probability and takes no criteria.');
    return { type, instructions };
  }
  if (type === 'choice') return { type, instructions, criteria: readOptions(criteria, `${at}.criteria`) };
  return { type, instructions, criteria: readLevels(criteria, `${at}.criteria`) };
}

function readOptions(raw: unknown, at: string): Record<string, string> {
  if (!isObject(raw)) throw invalid(at, `must be an object of ${QUESTION_LIMITS.minOptions} to ${QUESTION_LIMITS.maxOptions} options (option id -> description).`);
  const ids = Object.keys(raw);
  if (ids.length < QUESTION_LIMITS.minOptions || ids.length > QUESTION_LIMITS.maxOptions) {
    throw invalid(at, `holds ${ids.length} options; a choice question takes ${QUESTION_LIMITS.minOptions} to ${QUESTION_LIMITS.maxOptions}.`, { count: ids.length, min: QUESTION_LIMITS.minOptions, max: QUESTION_LIMITS.maxOptions });
  }
  for (const id of ids) {
    if (!id.trim() || id.length > QUESTION_LIMITS.maxOptionIdChars || /[\u0000-\u001f]/.test(id)) throw invalid(`${at}.${id}`, `is not a valid option id: use 1 to ${QUESTION_LIMITS.maxOptionIdChars} characters without control characters.`);
    criterion(raw[id], `${at}.${id}`);
  }
  return raw as Record<string, string>;
}

function readLevels(raw: unknown, at: string): string[] {
  if (!Array.isArray(raw) || raw.length < QUESTION_LIMITS.minLevels || raw.length > QUESTION_LIMITS.maxLevels) {
    const count = Array.isArray(raw) ? raw.length : undefined;
    throw invalid(at, `must be an ordered array of ${QUESTION_LIMITS.minLevels} to ${QUESTION_LIMITS.maxLevels} level descriptions${count === undefined ? '' : `; it holds ${count}`}.`, { count, min: QUESTION_LIMITS.minLevels, max: QUESTION_LIMITS.maxLevels });
  }
  raw.forEach((level, i) => criterion(level, `${at}[${i}]`));
  return raw as string[];
}

function criterion(value: unknown, at: string): void {
  if (typeof value !== 'string' || !value.trim()) throw invalid(at, 'must be a non-empty string (a description).');
  if (value.length > QUESTION_LIMITS.maxCriterionChars) throw invalid(at, `must be at most ${QUESTION_LIMITS.maxCriterionChars} characters.`);
}

function invalid(param: string, problem: string, details?: Record<string, unknown>): GatewayError {
  return new GatewayError('invalid_question', `"${param}" ${problem}`, { param, ...(details ? { details } : {}) });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
