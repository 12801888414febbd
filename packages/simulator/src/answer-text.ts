import { countWords, generateWords } from './generated-text';

/**
 * What a simulated model writes in prose: it repeats the question, says it
 * is a simulated answer and from which model, then adds readable filler, so
 * that a newcomer trying the gateway without keys sees at once what
 * answered. Exactly `wordCount` words (the `[sim words=N]` contract): the
 * echo and the model sentence are left out when they do not fit. Simulated
 * thinking opens the same way ("Let me think about ..."). The same
 * question, model and seed give the same text.
 */

export interface AnswerTextRequest {
  /** What the user asked, directives removed; undefined or blank when there is no question to repeat (a turn of tool results). */
  question: string | undefined;
  model: string;
  seed: number;
  wordCount: number;
}

/** A question is repeated up to this many words, then cut with an ellipsis. */
const MAX_ECHO_WORDS = 12;

/** First words that read as the start of a question or an instruction, written in lower case after "You asked:". */
const LOWER_CASE_OPENERS = new Set([
  'what', 'how', 'why', 'who', 'whom', 'whose', 'when', 'where', 'which', 'can', 'could', 'would', 'should', 'will', 'is', 'are', 'was', 'were',
  'do', 'does', 'did', 'tell', 'say', 'give', 'write', 'explain', 'please', 'hi', 'hello', 'hey', 'name', 'list', 'describe', 'summarize',
  'summarise', 'translate', 'find', 'show', 'make', 'compare', 'think', 'answer', 'the', 'a', 'an', 'my', 'our', 'your', 'this', 'that',
]);

export function answerText({ question, model, seed, wordCount }: AnswerTextRequest): string {
  const echo = questionEcho(question);
  return withOpening([echo === undefined ? undefined : `You asked: ${echo}.`, `This is a simulated answer from ${model}.`], seed, wordCount, 'answer');
}

export function thinkingText({ question, seed, wordCount }: Omit<AnswerTextRequest, 'model'>): string {
  const echo = questionEcho(question);
  return withOpening([`Let me think about ${echo === undefined ? 'this' : `"${echo}"`}.`], seed, wordCount, 'thinking');
}

/** The opening sentences that fit in `wordCount`, in order, then filler up to exactly `wordCount` words. */
function withOpening(opening: (string | undefined)[], seed: number, wordCount: number, pool: 'answer' | 'thinking'): string {
  const sentences: string[] = [];
  let remaining = wordCount;
  for (const sentence of opening) {
    if (sentence === undefined || countWords(sentence) > remaining) continue;
    sentences.push(sentence);
    remaining -= countWords(sentence);
  }
  if (remaining > 0) sentences.push(generateWords(seed, remaining, pool));
  return sentences.join(' ');
}

/** The question on one line, its first word in lower case when it is an ordinary opener, without closing punctuation, cut after a few words. */
function questionEcho(question: string | undefined): string | undefined {
  const words = (question ?? '').split(/\s+/).filter(Boolean);
  if (words.length === 0) return undefined;
  const shown = words.slice(0, MAX_ECHO_WORDS);
  const first = shown[0] ?? '';
  if (/^[A-Z][a-z']*$/.test(first) && LOWER_CASE_OPENERS.has(first.toLowerCase())) shown[0] = first.toLowerCase();
  const text = shown.join(' ').replace(/[\s.?!:;,…]+$/u, '');
  if (text === '') return undefined;
  return words.length > MAX_ECHO_WORDS ? `${text}…` : text;
}
