import { type Odds, rankedOdds, splitProbability } from './choice-odds';
import { type EvaluationPrompt, type QuestionText, readEvaluationPrompt, sharedWords } from './decision-evaluation-prompt';
import { type Random, hashString, seededRandom } from './deterministic-random';
import { type JsonSchema, type JsonValue, concreteSchema, fillObjectSchema, propertySchema, stringEnum } from './json-schema-sample';
import { pathKey } from './structured-text';

/**
 * The answers of a decision evaluation (the gateway's `decision_answers`
 * structured output): one object per question id, each a coherent judgement
 * rather than a schema sample. Per question the model picks a value, and
 * every number agrees with that pick: the probabilities of the values add up
 * to 1 with the picked one highest, `confidence` is the picked value's
 * probability, and the odds at the picked value's place (for
 * log-probabilities) are those same numbers.
 *
 * The pick leans on the state, as far as shared words can tell (see
 * decision-evaluation-prompt.ts): `yes` when the question's words appear in
 * the state, the option or level whose description shares the most words
 * with it. Where the words tell nothing the pick is seeded by the prompt and
 * the question id: any value of a yes/no question or a choice, a level
 * nearer the middle of a scale more often than its ends.
 *
 * The question kind is read from the schema the gateway builds:
 * - noul: `answer` (`yes`/`no`), `probability` (of yes), `confidence`;
 * - choice: `option` (an option id), `probabilities` (one per option id), `confidence`;
 * - score: `level` (`"1"`..`"n"`), `distribution` (n numbers in level order), `confidence`.
 * A question of another shape is sampled from its schema like any structured output.
 */

export interface DecisionAnswers {
  value: JsonValue;
  /** The odds at each question's pick, keyed by `pathKey` of the pick's place. */
  odds: Map<string, Odds[]>;
}

interface Pick {
  values: string[];
  chosen: number;
  probabilities: number[];
}

interface QuestionKind {
  /** The enum-valued field that names the pick. */
  field: string;
  /** How well each value fits the state, by shared words; the best, when it is the only best and above 0, is picked. */
  fitOf(question: QuestionText, state: string, values: string[]): number[];
  /** The pick when the fits tell nothing. */
  guess(random: Random, count: number): number;
  /** How the values that were not picked share the rest of the probability. */
  weightOf(random: Random, chosen: number): (index: number) => number;
  /** The answer's other fields, given the pick. */
  fields(pick: Pick, schema: JsonSchema, document: unknown, random: Random): { [name: string]: JsonValue };
}

const anyValue = (random: Random, count: number) => Math.floor(random() * count);

const NOUL: QuestionKind = {
  field: 'answer',
  fitOf: (question, state, values) => values.map((value) => (value === 'yes' ? sharedWords(question.instructions, state) : 0)),
  guess: anyValue,
  weightOf: () => () => 1,
  fields: ({ values, chosen, probabilities }) => {
    const yes = values.indexOf('yes');
    return { probability: probabilities[yes >= 0 ? yes : chosen], confidence: probabilities[chosen] };
  },
};

const CHOICE: QuestionKind = {
  field: 'option',
  fitOf: (question, state, values) => values.map((value) => sharedWords(`${value} ${question.options[value] ?? ''}`, state)),
  guess: anyValue,
  weightOf: (random) => () => 0.1 + random(),
  fields: ({ values, chosen, probabilities }, schema, document, random) => {
    const byOption = Object.fromEntries(values.map((value, index) => [value, probabilities[index]]));
    return { probabilities: fillObjectSchema(propertySchema(schema, 'probabilities'), document, byOption, random), confidence: probabilities[chosen] };
  },
};

/** Levels next to the picked one are likelier than far ones, as a real judgement on a scale is. */
const SCORE: QuestionKind = {
  field: 'level',
  fitOf: (question, state, values) => values.map((_, index) => sharedWords(question.levels[index] ?? '', state)),
  // The mean of two draws: the middle levels are likelier than the ends.
  guess: (random, count) => Math.min(count - 1, Math.floor(((random() + random()) / 2) * count)),
  weightOf: (random, chosen) => (index) => (0.5 + random() / 2) * 0.4 ** Math.abs(index - chosen),
  fields: ({ chosen, probabilities }) => ({ distribution: probabilities, confidence: probabilities[chosen] }),
};

const KINDS = [NOUL, CHOICE, SCORE];

/** `document` is the whole `json_schema.schema`; `seed` stands for the prompt, `promptText` is it (the evaluation prompt the gateway wrote). */
export function decisionAnswers(document: unknown, seed: number, promptText: string): DecisionAnswers {
  const prompt = readEvaluationPrompt(promptText);
  const top = concreteSchema(document, document) ?? {};
  const odds = new Map<string, Odds[]>();
  const answers: { [questionId: string]: JsonValue } = {};
  for (const questionId of Object.keys(asRecord(top.properties))) {
    const question = concreteSchema(propertySchema(top, questionId), document) ?? {};
    const answer = answerQuestion(question, document, seededRandom(hashString(questionId, seed)), prompt, questionId);
    if (!answer) continue;
    answers[questionId] = answer.value;
    odds.set(pathKey([questionId, answer.field]), answer.odds);
  }
  return { value: fillObjectSchema(top, document, answers, seededRandom(seed)), odds };
}

function answerQuestion(schema: JsonSchema, document: unknown, random: Random, prompt: EvaluationPrompt | undefined, questionId: string): { value: JsonValue; field: string; odds: Odds[] } | undefined {
  for (const kind of KINDS) {
    const values = stringEnum(concreteSchema(propertySchema(schema, kind.field), document) ?? {});
    if (values.length < 2) continue;
    const question = prompt?.questions.get(questionId);
    const fits = prompt && question ? kind.fitOf(question, prompt.state, values) : [];
    const chosen = bestFit(fits) ?? kind.guess(random, values.length);
    const probabilities = splitProbability(random, values.length, chosen, kind.weightOf(random, chosen));
    const pick = { values, chosen, probabilities };
    const value = fillObjectSchema(schema, document, { [kind.field]: values[chosen], ...kind.fields(pick, schema, document, random) }, random);
    return { value, field: kind.field, odds: rankedOdds(values, probabilities, chosen) };
  }
  return undefined;
}

/** The index of the single highest fit above 0; undefined when none stands out. */
function bestFit(fits: number[]): number | undefined {
  const best = Math.max(0, ...fits);
  return best > 0 && fits.filter((fit) => fit === best).length === 1 ? fits.indexOf(best) : undefined;
}

function asRecord(value: unknown): { [key: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { [key: string]: unknown }) : {};
}
