import type { DecisionQuestion, DecisionQuestions } from './decision-questions';

/** The structured output the decision model fills in: one object per question. */
export const ANSWERS_SCHEMA_NAME = 'decision_answers';

const probability = { type: 'number', minimum: 0, maximum: 1 };

/**
 * The JSON Schema of the evaluation's answer: per question, the answer as an
 * enum (`yes`/`no`, an option id, a level number as a string) so that the
 * token log-probabilities at that position rank the alternatives, the
 * model's own probabilities, and a confidence.
 */
export function answersSchema(questions: DecisionQuestions): Record<string, unknown> {
  const ids = Object.keys(questions);
  return {
    type: 'object',
    additionalProperties: false,
    required: ids,
    properties: Object.fromEntries(ids.map((id) => [id, answerSchema(questions[id]!)])),
  };
}

/** The enum values an answer is chosen among, in the order of the question's criteria. */
export function answerChoices(question: DecisionQuestion): string[] {
  if (question.type === 'noul') return ['yes', 'no'];
  if (question.type === 'choice') return Object.keys(question.criteria);
  return question.criteria.map((_, i) => String(i + 1));
}

/** The field that holds the chosen enum value. */
export function answerField(question: DecisionQuestion): 'answer' | 'option' | 'level' {
  return question.type === 'noul' ? 'answer' : question.type === 'choice' ? 'option' : 'level';
}

function answerSchema(question: DecisionQuestion): Record<string, unknown> {
  const choice = { type: 'string', enum: answerChoices(question) };
  if (question.type === 'noul') {
    return object({ answer: choice, probability, confidence: probability });
  }
  if (question.type === 'choice') {
    const ids = Object.keys(question.criteria);
    return object({ option: choice, probabilities: { type: 'object', additionalProperties: false, required: ids, properties: Object.fromEntries(ids.map((o) => [o, probability])) }, confidence: probability });
  }
  const n = question.criteria.length;
  return object({ level: choice, distribution: { type: 'array', minItems: n, maxItems: n, items: probability }, confidence: probability });
}

function object(properties: Record<string, unknown>): Record<string, unknown> {
  return { type: 'object', additionalProperties: false, required: Object.keys(properties), properties };
}
