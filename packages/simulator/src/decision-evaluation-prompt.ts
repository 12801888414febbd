/**
 * The gateway's decision evaluation prompt, read back: the state, and per
 * question id its instructions and criteria (option descriptions by option
 * id, or level descriptions in order), from the text the gateway writes:
 *
 *     STATE (text):
 *     ...
 *
 *     QUESTIONS:
 *     [is_refund] noul
 *     instructions: Does the customer ask for a refund?
 *
 *     [topic] choice
 *     instructions: What is the message about?
 *     options (option id -> description, JSON): {"billing":"Payments","other":"Anything else"}
 *
 * so that the simulated judge can lean towards answers the state supports,
 * and how much a question's words and the state's have in common, which is
 * the whole of its judgement. Undefined for a prompt of another shape.
 */

export interface EvaluationPrompt {
  state: string;
  questions: Map<string, QuestionText>;
}

export interface QuestionText {
  instructions: string;
  /** Option descriptions by option id, for a choice. */
  options: { [id: string]: string };
  /** Level descriptions, the first level first, for a score. */
  levels: string[];
}

const STATE_HEADING = /^STATE \((?:text|JSON)\):\n/;
const QUESTIONS_HEADING = '\n\nQUESTIONS:\n';
const QUESTION_HEADER = /^\[([A-Za-z0-9_.-]{1,128})\] (?:noul|choice|score)$/gm;
const OPTIONS_LINE = /^options \(option id -> description, JSON\): (.*)$/m;
const LEVELS_LINE = /^levels \(in order, 1 is the first, JSON\): (.*)$/m;

export function readEvaluationPrompt(text: string): EvaluationPrompt | undefined {
  const heading = STATE_HEADING.exec(text);
  const split = text.lastIndexOf(QUESTIONS_HEADING);
  if (!heading || split < 0) return undefined;
  const state = text.slice(heading[0].length, split);
  const list = text.slice(split + QUESTIONS_HEADING.length);
  const headers = [...list.matchAll(QUESTION_HEADER)];
  const questions = new Map<string, QuestionText>();
  headers.forEach((header, index) => {
    const block = list.slice((header.index ?? 0) + header[0].length, headers[index + 1]?.index ?? list.length);
    questions.set(header[1] ?? '', readQuestion(block));
  });
  return { state, questions };
}

function readQuestion(block: string): QuestionText {
  const instructions = /^instructions: (.*)$/m.exec(block)?.[1] ?? '';
  const options = parseJson(OPTIONS_LINE.exec(block)?.[1]);
  const levels = parseJson(LEVELS_LINE.exec(block)?.[1]);
  return {
    instructions,
    options: isStringRecord(options) ? options : {},
    levels: Array.isArray(levels) ? levels.map(String) : [],
  };
}

/** Words that say nothing about what a text is about, among them the prompt's own framing. */
const FRAMING_WORDS = new Set([
  'the', 'and', 'for', 'are', 'was', 'were', 'is', 'not', 'yes', 'does', 'did', 'this', 'that', 'with', 'from', 'have', 'has', 'what', 'which',
  'when', 'where', 'who', 'how', 'why', 'any', 'all', 'there', 'their', 'about', 'into', 'than', 'then', 'them', 'they', 'will', 'would',
  'could', 'should', 'state', 'given', 'answer', 'question', 'decision', 'option', 'level', 'best', 'describes', 'described', 'relevant', 'rate',
]);
/** Words agree on their first letters, so that `refunds` meets `refund` and `charged` meets `charge`. */
const STEM_LENGTH = 5;

/** How many different words (by stem) of `text` the `state` also has. */
export function sharedWords(text: string, state: string): number {
  const inState = stems(state);
  return [...stems(text)].filter((stem) => inState.has(stem)).length;
}

function stems(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];
  return new Set(words.filter((word) => !FRAMING_WORDS.has(word)).map((word) => word.slice(0, STEM_LENGTH)));
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isStringRecord(value: unknown): value is { [id: string]: string } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((item) => typeof item === 'string');
}
