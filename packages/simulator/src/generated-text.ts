import { type Random, pickOne, seededRandom } from './deterministic-random';

/**
 * Readable filler from fixed pools of sentences, for answers that must be
 * deterministic and of an exact length in words (`[sim words=N]` sets it,
 * and streaming, the benchmark and the token counts follow from it) but
 * should still read as plain English in a demo or a log. The pools hold a
 * sentence of every length from one word up, so any count can be met
 * exactly; a sentence is not used twice before the pool runs out.
 */

/** What a simulated answer says about itself. */
const ANSWER_SENTENCES = [
  'Thanks.',
  'Nothing more.',
  'All done.',
  'Hope this helps.',
  'That is all.',
  'That is the gist.',
  'This reply is a stand-in.',
  'Nothing here was looked up or checked.',
  'Treat these sentences as placeholder text, not as facts.',
  'The same prompt always gets the same words back.',
  'No request left this machine to produce this answer.',
  "The gateway's built-in simulator wrote this text, not a real model.",
  "Set the provider's API key to get answers from the real model instead.",
  'Usage, token counts and cost are recorded as they would be for a real answer.',
  'Streaming sends this same text in small pieces, the way a real model streams its answer.',
  'Tool calls, structured output and reasoning work too, with made-up but valid values.',
  'The simulator keeps each answer short and plain, so that tests and demos stay easy to read.',
  'A real model would answer the question here, in as much detail as it needs.',
  'Token counts follow a simple rule of about four characters per token.',
  'Every sentence comes from a small fixed list.',
  'The length of this answer depends on the prompt.',
  'It is deterministic by design.',
  'That keeps results stable.',
  'Ask again for the same words.',
] as const;

/** What simulated thinking says: steps of a plan, without a real line of reasoning behind them. */
const THINKING_SENTENCES = [
  'Okay.',
  'Right, next.',
  'Good.',
  'Fine, go on.',
  'That settles it.',
  'A short answer should do.',
  'First, what exactly is being asked?',
  'The question looks clear enough to answer directly.',
  'I will keep the reply plain and honest.',
  'Next, I should check whether a tool would help here.',
  'Nothing in the prompt seems to need a long calculation.',
  'I should say plainly that this answer comes from a simulator.',
  'There is no real reasoning behind these lines; the simulator writes them from a list.',
  'Then I can put the answer together in a few sentences.',
  'One more look at the wording before I answer.',
  'The user probably wants something short and easy to read.',
  'So the plan is simple.',
] as const;

/** What a made-up web page (a search result, an extracted page) says about itself and its topic. */
const PAGE_SENTENCES = [
  'Overview.',
  'Read on.',
  'More below.',
  'Sources vary widely.',
  'It covers the basics first.',
  'Here is a short summary.',
  'This page is made up.',
  'Dates, names and figures here are placeholders.',
  'This section would go into more detail.',
  'Further reading is listed at the end.',
  'The simulator wrote this page for a search.',
  'The same query always finds the same pages.',
  'Experts disagree on some of the finer points.',
  'Many readers find this topic worth a closer look.',
  'Its links lead to made-up hosts, not to real sites.',
  'A real search backend would return text from the page itself.',
  'Set a search API key to search the real web instead.',
] as const;

export type SentencePool = 'answer' | 'thinking' | 'page';

const POOLS: { [pool in SentencePool]: readonly string[] } = { answer: ANSWER_SENTENCES, thinking: THINKING_SENTENCES, page: PAGE_SENTENCES };

/** Sentences of this many words or more are preferred while more words are to come, so that an answer does not end in a run of one-word sentences. */
const COMFORTABLE_SENTENCE_WORDS = 4;

/** Filler sentences of exactly `wordCount` words (none for 0), the same for the same seed. */
export function generateWords(seed: number, wordCount: number, pool: SentencePool = 'answer'): string {
  return fillSentences(seededRandom(seed), wordCount, POOLS[pool]).join(' ');
}

/** Sentences of the pool making up exactly `wordCount` words. */
function fillSentences(random: Random, wordCount: number, pool: readonly string[]): string[] {
  const sentences: string[] = [];
  const used = new Set<string>();
  let remaining = wordCount;
  while (remaining > 0) {
    const sentence = pickSentence(random, pool, remaining, used);
    sentences.push(sentence);
    used.add(sentence);
    if (used.size === pool.length) used.clear();
    remaining -= countWords(sentence);
  }
  return sentences;
}

/** One not used yet that ends the text exactly or leaves room for a comfortable sentence after it; else any unused that fits; else any that fits. */
function pickSentence(random: Random, pool: readonly string[], remaining: number, used: Set<string>): string {
  const fits = (test: (words: number) => boolean) => pool.filter((sentence) => test(countWords(sentence)));
  const lists = [
    fits((words) => words === remaining || (words >= COMFORTABLE_SENTENCE_WORDS && remaining - words >= COMFORTABLE_SENTENCE_WORDS)),
    fits((words) => words <= remaining),
  ];
  const fresh = lists.map((list) => list.filter((sentence) => !used.has(sentence))).find((list) => list.length > 0);
  const candidates = fresh ?? lists.find((list) => list.length > 0);
  if (!candidates) throw new Error('every sentence pool has a one-word sentence');
  return pickOne(random, candidates);
}

export function countWords(text: string): number {
  return text.split(' ').filter(Boolean).length;
}
