import type OpenAI from 'openai';

export interface AssembledToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** What a client assembles from a streamed chat completion: tool calls by index, the finish reason, the usage trailer. */
export interface StreamedChat {
  toolCalls: Map<number, AssembledToolCall>;
  /** How many deltas carried argument text. */
  argumentDeltas: number;
  finishReason: string | null;
  usage: OpenAI.CompletionUsage | undefined;
}

/** Reads a stream to its end the way OpenAI clients do: tool-call fragments joined by index. */
export async function readStreamedChat(stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>): Promise<StreamedChat> {
  const out: StreamedChat = { toolCalls: new Map(), argumentDeltas: 0, finishReason: null, usage: undefined };
  for await (const chunk of stream) {
    if (chunk.usage) out.usage = chunk.usage;
    out.finishReason = chunk.choices[0]?.finish_reason ?? out.finishReason;
    for (const d of chunk.choices[0]?.delta?.tool_calls ?? []) {
      const call = out.toolCalls.get(d.index) ?? { id: '', name: '', arguments: '' };
      call.id += d.id ?? '';
      call.name += d.function?.name ?? '';
      call.arguments += d.function?.arguments ?? '';
      if (d.function?.arguments) out.argumentDeltas++;
      out.toolCalls.set(d.index, call);
    }
  }
  return out;
}
