import type { ChatMessage } from '../providers/chat-request';

type CountTokens = (text: string) => number;

let countTokensImpl: CountTokens | undefined;

/**
 * A real BPE tokenizer (o200k, the GPT-4o/4.1/o-series encoding), loaded on
 * first use: it costs about 70 MB and 200 ms, and is needed only when an
 * upstream reports no usage (a stream cut off before its usage chunk).
 */
export function countTextTokens(text: string): number {
  if (!text) return 0;
  // Beyond this, a rule of thumb is as good an estimate and costs nothing.
  if (text.length > MAX_TOKENIZED_CHARS) return Math.ceil(Buffer.byteLength(text) / 4);
  if (!countTokensImpl) countTokensImpl = (require('gpt-tokenizer/encoding/o200k_base') as { countTokens: CountTokens }).countTokens;
  // BPE merging is quadratic in the length of a run without spaces, so long texts are counted in
  // bounded pieces: a request can never hold the event loop for more than milliseconds.
  let total = 0;
  for (let start = 0; start < text.length; start += PIECE_CHARS) total += countTokensImpl(text.slice(start, start + PIECE_CHARS));
  return total;
}

const PIECE_CHARS = 2_048;
const MAX_TOKENIZED_CHARS = 64 * 1024;

/** Per-message framing and reply priming, as OpenAI documents for its chat format. */
const TOKENS_PER_MESSAGE = 3;
const TOKENS_REPLY_PRIMING = 3;
/** A low-detail image tile; an estimate when the upstream does not say. */
const TOKENS_PER_IMAGE = 85;

export function countPromptTokens(messages: ChatMessage[], tools?: unknown[] | null): number {
  let total = TOKENS_REPLY_PRIMING;
  for (const message of messages) {
    total += TOKENS_PER_MESSAGE + countTextTokens(message.role);
    const content = 'content' in message ? message.content : null;
    if (typeof content === 'string') total += countTextTokens(content);
    else if (Array.isArray(content)) {
      for (const part of content) total += part.type === 'text' ? countTextTokens(part.text) : TOKENS_PER_IMAGE;
    }
    if (message.role === 'assistant' && message.tool_calls) {
      for (const call of message.tool_calls) total += countTextTokens(call.function.name) + countTextTokens(call.function.arguments);
    }
  }
  if (tools?.length) total += countTextTokens(JSON.stringify(tools));
  return total;
}
