import { type Random, seededRandom } from './deterministic-random';
import { type JsonSchema, type JsonValue, concreteSchema, fillObjectSchema, itemsSchema, propertySchema } from './json-schema-sample';

/**
 * The questions of a decision (the gateway's `decision_questions`
 * structured output), written about the state the user described: a yes/no
 * (`noul`) question, a `choice` among three options and a five-level
 * `score`, each about a word of the state, so different states get
 * different questions and the same state the same ones. Ids use only
 * letters, digits and `_`, and are unique; options and levels are empty
 * where the type has none.
 *
 * `unusable` writes questions the gateway must turn down instead, each
 * still fitting the schema (strict structured output guarantees no more):
 * an id with a space, a choice with a single option, and a score with
 * eleven levels that reuses the choice's id.
 */

interface Question {
  id: string;
  type: 'noul' | 'choice' | 'score';
  instructions: string;
  options: { id: string; description: string }[];
  levels: string[];
}

/**
 * Words too common to say what a state is about (most of them verbs and
 * adverbs, which make odd subjects: "is the give relevant?"), and the
 * labels the gateway frames the state with (`STATE (text):`).
 */
const STOP_WORDS = new Set([
  'state', 'text', 'json', 'this', 'that', 'with', 'from', 'have', 'will', 'what', 'when', 'which', 'there', 'their', 'about', 'should', 'would',
  'could', 'into', 'your', 'they', 'been', 'were', 'then', 'than', 'some', 'also', 'give', 'take', 'make', 'made', 'want', 'need', 'know',
  'think', 'said', 'says', 'tell', 'told', 'come', 'came', 'goes', 'going', 'gone', 'just', 'very', 'really', 'back', 'twice', 'once',
  'please', 'here', 'where', 'while', 'only', 'even', 'still', 'much', 'many', 'more', 'most', 'over', 'under', 'after', 'before', 'again',
  'every', 'each', 'other', 'does', 'doing', 'done', 'being', 'them', 'these', 'those', 'because', 'today', 'yesterday', 'tomorrow', 'nothing',
  'something', 'anything', 'everything', 'leave', 'leaves', 'asks', 'happened',
]);
/** Past forms, -ing forms and adverbs, which are rarely what a state is about. */
const NOT_A_SUBJECT = /^[a-z0-9]{4,}(?:ed|ing|ly)$/;
const FALLBACK_SUBJECTS = ['situation', 'outcome', 'progress'];
const MAX_SUBJECT_LENGTH = 24;
const SCORE_LEVELS = ['not at all', 'barely', 'partly', 'mostly', 'completely'];
const UNUSABLE_SCORE_LEVELS = 11;

/** `document` is the whole `json_schema.schema`, `state` the user's text without directives, `seed` stands for the prompt. */
export function decisionQuestions(document: unknown, state: string, seed: number, unusable: boolean): JsonValue {
  const random = seededRandom(seed);
  const top = concreteSchema(document, document) ?? {};
  const list = concreteSchema(propertySchema(top, 'questions'), document) ?? {};
  const item = concreteSchema(itemsSchema(list), document) ?? {};
  const option = itemsSchema(concreteSchema(propertySchema(item, 'options'), document) ?? {});
  const questions = (unusable ? unusableQuestions : usableQuestions)(subjectsOf(state, random)).slice(0, maxItems(list));
  const written = questions.map((question) => {
    const options = question.options.map((given) => fillObjectSchema(option, document, { ...given }, random));
    return fillObjectSchema(item, document, { ...question, options }, random);
  });
  return fillObjectSchema(top, document, { questions: written }, random);
}

function usableQuestions([first, second, third]: string[]): Question[] {
  return [
    { id: `is_${first}_relevant`, type: 'noul', instructions: `Given the state, is the ${first} relevant to this decision? Answer yes or no.`, options: [], levels: [] },
    {
      id: `${second}_trend`,
      type: 'choice',
      instructions: `Which option best describes where the ${second} is heading?`,
      options: [
        { id: 'a', description: `The ${second} is improving.` },
        { id: 'b', description: `The ${second} is holding steady.` },
        { id: 'c', description: `The ${second} is getting worse.` },
      ],
      levels: [],
    },
    {
      id: `${third}_clarity`,
      type: 'score',
      instructions: `Rate how clearly the state describes the ${third}, from the first level (not at all) to the last (completely).`,
      options: [],
      levels: SCORE_LEVELS.map((level) => `The ${third} is ${level} described.`),
    },
  ];
}

function unusableQuestions([first, second]: string[]): Question[] {
  return [
    { id: `is ${first} relevant`, type: 'noul', instructions: `Is the ${first} relevant?`, options: [], levels: [] },
    { id: `${second}_trend`, type: 'choice', instructions: `Which way is the ${second} heading?`, options: [{ id: 'a', description: `The ${second} is improving.` }], levels: [] },
    {
      id: `${second}_trend`,
      type: 'score',
      instructions: `Rate the ${second} on eleven levels.`,
      options: [],
      levels: Array.from({ length: UNUSABLE_SCORE_LEVELS }, (_, index) => `Level ${index + 1}`),
    },
  ];
}

/** Three words of the state, picked at random and distinct, lower-case ASCII letters and digits only; stand-ins when it has too few. */
function subjectsOf(state: string, random: Random): string[] {
  const words = state.toLowerCase().match(/[a-z][a-z0-9]{3,}/g) ?? [];
  const remaining = [...new Set(words)].filter((word) => !STOP_WORDS.has(word) && !NOT_A_SUBJECT.test(word)).map((word) => word.slice(0, MAX_SUBJECT_LENGTH));
  return FALLBACK_SUBJECTS.map((fallback) => {
    if (remaining.length === 0) return fallback;
    return remaining.splice(Math.floor(random() * remaining.length), 1)[0] ?? fallback;
  });
}

function maxItems(schema: JsonSchema): number {
  return typeof schema.maxItems === 'number' && schema.maxItems >= 1 ? schema.maxItems : Number.POSITIVE_INFINITY;
}
