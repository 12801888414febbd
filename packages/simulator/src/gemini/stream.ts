import type { StreamScript } from '../event-stream';
import { sseDataFrame } from '../openai/chat-stream';
import { splitIntoPieces } from '../text-pieces';
import { countTextTokens } from '../token-count';
import type { GeminiAnswer } from './answer';
import { type ResponseIdentity, functionCallPart, modelContent, thoughtPart, totalThoughtsTokens } from './response';
import { streamedFunctionCallParts } from './streamed-arguments';
import { type PromptTokens, functionCallTokens, usageMetadata, visibleAnswerTokens } from './usage';

export interface GeminiStreamShape {
  /** Characters of text per chunk. */
  chunkSize: number;
  /** Stream function call arguments in pieces (`[sim stream_args]`). */
  streamArgs: boolean;
}

/** Short argument pieces, so that even a one-word string value comes in several. */
const ARGUMENT_PIECE_CHARACTERS = 4;

/**
 * A streamed answer as `streamGenerateContent?alt=sse` sends it, shaped like
 * the recorded streams (test/fixtures/recorded/gemini/*.chunks.txt): every
 * event one whole `GenerateContentResponse` as `data: <json>` and a blank
 * line, with no event names and no terminator. Each chunk carries one piece
 * (thought summary pieces first, then text pieces, or each function call
 * whole) and the running usage: the prompt and the thinking from the
 * start, the visible tokens so far. The last chunk carries an empty text
 * part, the finish reason and the final usage. All but the last are content,
 * for `cut_after` and `stream_error`. With `streamArgs`, each function call
 * comes in pieces instead (streamed-arguments.ts), one part per chunk, each
 * carrying the call's tokens.
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
export function geminiStreamScript(identity: ResponseIdentity, answers: GeminiAnswer[], prompt: PromptTokens, shape: GeminiStreamShape): StreamScript {
  const thoughts = totalThoughtsTokens(answers);
  const shown = answers.map(() => 0);
  const content = answers.flatMap((answer, index) =>
    answerPieces(answer, shape).map(({ part, visibleTokens }) => {
      shown[index] = visibleTokens;
      const usage = usageMetadata(prompt, shown.reduce((sum, tokens) => sum + tokens, 0), thoughts);
      return chunkFrame(identity, [{ content: modelContent([part]), index }], usage);
    }),
  );
  const finish = answers.map((answer, index) => ({ content: modelContent([{ text: '' }]), finishReason: answer.finishReason, index }));
  const total = answers.reduce((sum, answer) => sum + visibleAnswerTokens(answer), 0);
  return { head: [], content, tail: [chunkFrame(identity, finish, usageMetadata(prompt, total, thoughts))] };
}

interface AnswerPiece {
  part: object;
  /** The answer's visible tokens up to and including this piece. */
  visibleTokens: number;
}

function answerPieces(answer: GeminiAnswer, { chunkSize, streamArgs }: GeminiStreamShape): AnswerPiece[] {
  const thoughts = splitIntoPieces(answer.thoughtSummary ?? '', chunkSize).map((piece) => ({ part: thoughtPart(piece), visibleTokens: 0 }));
  let shownText = '';
  const text = splitIntoPieces(answer.text, chunkSize).map((piece) => {
    shownText += piece;
    return { part: { text: piece }, visibleTokens: countTextTokens(shownText) };
  });
  let callTokens = 0;
  const calls = answer.functionCalls.flatMap((call) => {
    callTokens += functionCallTokens(call);
    const parts = streamArgs ? streamedFunctionCallParts(call, Math.min(chunkSize, ARGUMENT_PIECE_CHARACTERS)) : [functionCallPart(call)];
    return parts.map((part) => ({ part, visibleTokens: callTokens }));
  });
  return [...thoughts, ...text, ...calls];
}

function chunkFrame(identity: ResponseIdentity, candidates: object[], usage: object): string {
  return sseDataFrame({ candidates, usageMetadata: usage, ...identity });
}
