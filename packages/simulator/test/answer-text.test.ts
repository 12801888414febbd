import { answerText, thinkingText } from '../src/answer-text';
import { hashString } from '../src/deterministic-random';
import { generateWords } from '../src/generated-text';

/** A sentence: a capital letter (or the echo's opening), words, a full stop, question mark or ellipsis at the end. */
const SENTENCE = /^[A-Z"][^]*[.?!…]$/;

function sentencesOf(text: string): string[] {
  return text.split(/(?<=[.?!])\s+(?=[A-Z])/);
}

const ask = (question: string | undefined, wordCount: number) => answerText({ question, model: 'gpt-4.1-mini', seed: hashString(question ?? ''), wordCount });

describe('answerText', () => {
  it('repeats the question, names the model, then reads as sentences', () => {
    const text = ask('What is the capital of France?', 40);

    expect(text.startsWith('You asked: what is the capital of France. This is a simulated answer from gpt-4.1-mini. ')).toBe(true);
    for (const sentence of sentencesOf(text)) expect(sentence).toMatch(SENTENCE);
    expect(text).not.toMatch(/ {2}|\.\./);
  });

  it('is the same for the same question, and another for another question', () => {
    expect(ask('What is a gateway?', 30)).toBe(ask('What is a gateway?', 30));
    expect(ask('What is a router?', 30)).not.toBe(ask('What is a gateway?', 30));
  });

  it('has exactly the words asked for, leaving out the opening where it does not fit', () => {
    for (let wordCount = 0; wordCount <= 220; wordCount++) {
      const text = ask('Tell me a long story about a lighthouse keeper and the sea', wordCount);
      expect(text === '' ? 0 : text.split(' ').length).toBe(wordCount);
    }
    expect(ask('Hi', 3)).toBe('You asked: hi.');
    expect(ask('Please summarise this very long question that goes on and on for many more words', 30)).toMatch(/^You asked: please summarise this very long question that goes on and on for…\. /);
  });

  it('keeps a proper noun as written, and repeats no question where there is none', () => {
    expect(ask('Paris in spring?', 20)).toMatch(/^You asked: Paris in spring\. /);
    expect(ask(undefined, 20)).toMatch(/^This is a simulated answer from gpt-4.1-mini\. /);
    expect(ask('   ', 20)).toMatch(/^This is a simulated answer from gpt-4.1-mini\. /);
  });
});

describe('thinkingText', () => {
  it('thinks about the question in sentences of its own pool', () => {
    const text = thinkingText({ question: 'How much is 925 / 5?', seed: 7, wordCount: 30 });

    expect(text.startsWith('Let me think about "how much is 925 / 5". ')).toBe(true);
    expect(text.split(' ')).toHaveLength(30);
    for (const sentence of sentencesOf(text)) expect(sentence).toMatch(SENTENCE);
  });
});

describe('generateWords', () => {
  it('does not repeat a sentence before the pool runs out', () => {
    const sentences = sentencesOf(generateWords(11, 60));
    expect(new Set(sentences).size).toBe(sentences.length);
  });
});
