import { type Odds, randomChoiceOdds } from './choice-odds';
import { decisionAnswers } from './decision-answers';
import { decisionQuestions } from './decision-questions';
import { hashString, seededRandom } from './deterministic-random';
import { type JsonValue, sampleJsonSchema } from './json-schema-sample';
import { pathKey, serializeWithEnumSpots } from './structured-text';

/**
 * What a simulated model writes for a `json_schema` response format: a
 * sample of the schema, or, for the formats the gateway's decisions use
 * (told apart by their `name`), a purpose-built answer; and at each place
 * where it chose among enum values, how likely each value was, so that
 * log-probabilities can tell the same story as the numbers in the JSON.
 */

/** A choice among enum values: where its token starts in the text, and the odds, the written value first. */
export interface EnumChoice {
  offset: number;
  odds: Odds[];
}

export interface StructuredOutput {
  text: string;
  choices: EnumChoice[];
}

export interface StructuredOutputRequest {
  /** `json_schema.name`. */
  name: string | undefined;
  /** `json_schema.schema`. */
  schema: unknown;
  /** Stands for the prompt: the same prompt gets the same answer. */
  seed: number;
  /** The last user message's text without directives: what the questions of a decision are about. */
  promptText: string;
  /** The `unusable_questions` directive. */
  unusableQuestions: boolean;
}

/** The `json_schema.name`s with purpose-built answers. */
export const DECISION_ANSWERS_FORMAT = 'decision_answers';
export const DECISION_QUESTIONS_FORMAT = 'decision_questions';

export function structuredOutput(request: StructuredOutputRequest): StructuredOutput {
  const { value, odds } = structuredValue(request);
  const { text, spots } = serializeWithEnumSpots(value, request.schema);
  const choices = spots.map((spot) => {
    const key = pathKey(spot.path);
    const known = odds.get(key);
    if (known && known[0]?.value === spot.value) return { offset: spot.offset, odds: known };
    return { offset: spot.offset, odds: randomChoiceOdds(seededRandom(hashString(key, request.seed)), spot.values, spot.values.indexOf(spot.value)) };
  });
  return { text, choices };
}

function structuredValue(request: StructuredOutputRequest): { value: JsonValue; odds: Map<string, Odds[]> } {
  const { name, schema, seed } = request;
  switch (name) {
    case DECISION_ANSWERS_FORMAT:
      return decisionAnswers(schema, seed, request.promptText);
    case DECISION_QUESTIONS_FORMAT:
      return { value: decisionQuestions(schema, request.promptText, seed, request.unusableQuestions), odds: new Map() };
    default:
      return { value: sampleJsonSchema(schema, seededRandom(seed), request.promptText), odds: new Map() };
  }
}
