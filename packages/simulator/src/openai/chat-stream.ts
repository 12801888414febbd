import type { StreamScript } from '../event-stream';
import { splitIntoPieces } from '../text-pieces';
import type { ChatAnswer, ToolCallAnswer } from './chat-answer';
import type { ChatLogprobs, TokenLogprob } from './chat-logprobs';
import type { GeneratedToolCall } from './chat-tools';
import type { CompletionIdentity } from './chat-response';
import type { ChatUsage } from './chat-usage';

/**
 * A streamed answer as `chat.completion.chunk` frames, shaped like the
 * recorded api.openai.com stream (test/fixtures/recorded/openai-chat/text.chunks.txt):
 * a role chunk, content chunks, a chunk with the finish reason and an empty
 * delta, then (with `include_usage`) a usage chunk with no choices, then
 * `[DONE]`. Tool calls: the first fragment of each call carries its id, type,
 * name and empty arguments (the first one inside the role chunk), later
 * fragments only `{index, function:{arguments}}`. With logprobs, each
 * content chunk is whole tokens and carries theirs in its `logprobs`.
 * @see https://platform.openai.com/docs/api-reference/chat-streaming
 */

export interface ChatStreamOptions {
  /** The answer's logprobs, when the client asked for them and gets them. */
  logprobs?: ChatLogprobs | null;
  /** Every chunk carries `usage` (null but for the usage chunk) only when the client asked for usage. */
  includeUsage: boolean;
  /** OpenAI pads chunks with an `obfuscation` string unless the client turns it off. */
  includeObfuscation: boolean;
  chunkSize: number;
}

export const DONE_FRAME = 'data: [DONE]\n\n';

export function sseDataFrame(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}

export function chatStreamScript(identity: CompletionIdentity, answer: ChatAnswer, usage: ChatUsage, options: ChatStreamOptions): StreamScript {
  const frames = new ChunkFrames(identity, options);
  const [head, content] =
    answer.kind === 'text'
      ? [
          [frames.delta({ role: 'assistant', content: '', refusal: null })],
          textFrames(answer.content, frames, options),
        ]
      : toolCallFrames(answer, frames, options.chunkSize);
  const tail = [frames.delta({}, answer.finishReason)];
  if (options.includeUsage) tail.push(frames.usage(usage));
  tail.push(DONE_FRAME);
  return { head, content, tail };
}

interface ChunkPayload extends CompletionIdentity {
  object: 'chat.completion.chunk';
  choices: object[];
  usage?: ChatUsage | null;
  obfuscation?: string;
}

/** Frames of one answer, in the key order of the recorded chunks. */
class ChunkFrames {
  private sequence = 0;
  private readonly identity: CompletionIdentity;
  private readonly options: ChatStreamOptions;

  constructor(identity: CompletionIdentity, options: ChatStreamOptions) {
    this.identity = identity;
    this.options = options;
  }

  delta(delta: object, finishReason: string | null = null, logprobs: ChatLogprobs | null = null): string {
    return this.frame([{ index: 0, delta, logprobs, finish_reason: finishReason }], null);
  }

  usage(usage: ChatUsage): string {
    return this.frame([], usage);
  }

  private frame(choices: object[], usage: ChatUsage | null): string {
    const { id, created, model, service_tier, system_fingerprint } = this.identity;
    const payload: ChunkPayload = { id, object: 'chat.completion.chunk', created, model, service_tier, system_fingerprint, choices };
    if (this.options.includeUsage) payload.usage = usage;
    if (this.options.includeObfuscation) payload.obfuscation = obfuscationPadding(this.sequence++);
    return sseDataFrame(payload);
  }
}

function textFrames(content: string, frames: ChunkFrames, options: ChatStreamOptions): string[] {
  if (!options.logprobs) return splitIntoPieces(content, options.chunkSize).map((piece) => frames.delta({ content: piece }));
  return tokenGroups(options.logprobs.content, options.chunkSize).map((tokens) =>
    frames.delta({ content: tokens.map((token) => token.token).join('') }, null, { content: tokens, refusal: null }),
  );
}

/** Consecutive tokens, each group reaching about `size` characters, so that no token is split between chunks. */
function tokenGroups(tokens: TokenLogprob[], size: number): TokenLogprob[][] {
  const groups: TokenLogprob[][] = [];
  let group: TokenLogprob[] = [];
  let length = 0;
  for (const token of tokens) {
    group.push(token);
    length += token.token.length;
    if (length >= size) {
      groups.push(group);
      group = [];
      length = 0;
    }
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

function toolCallFrames(answer: ToolCallAnswer, frames: ChunkFrames, chunkSize: number): [string[], string[]] {
  const [first, ...others] = answer.toolCalls.map((call, index) => ({ call, index }));
  if (!first) throw new Error('a tool call answer has at least one call');
  const head = [frames.delta({ role: 'assistant', content: null, tool_calls: [toolCallHeader(first.call, first.index)], refusal: null })];
  const content = [
    ...argumentFragments(first.call, first.index, frames, chunkSize),
    ...others.flatMap(({ call, index }) => [
      frames.delta({ tool_calls: [toolCallHeader(call, index)] }),
      ...argumentFragments(call, index, frames, chunkSize),
    ]),
  ];
  return [head, content];
}

function toolCallHeader(call: GeneratedToolCall, index: number): object {
  return { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
}

function argumentFragments(call: GeneratedToolCall, index: number, frames: ChunkFrames, chunkSize: number): string[] {
  return splitIntoPieces(call.arguments, chunkSize).map((piece) => frames.delta({ tool_calls: [{ index, function: { arguments: piece } }] }));
}

/**
 * OpenAI's padding is random characters of varying length that hide the
 * size of each delta; clients ignore it, so a cheap deterministic stand-in
 * of the same shape is enough.
 */
const PADDING_SOURCE = 'Qup1BsQ3yhjoJbEFdTh7vk2LmXc9';

export function obfuscationPadding(sequence: number): string {
  const start = sequence % 10;
  return PADDING_SOURCE.slice(start, start + 1 + ((sequence * 7) % 12));
}
