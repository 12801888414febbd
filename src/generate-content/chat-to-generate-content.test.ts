import type { ChatCompletionChunk } from '../providers/chat-types';
import { toGenerateContentResponse, toGenerateContentStream } from './chat-to-generate-content';
import { decodeReasoningState } from '../chat/carried-reasoning-state';

const identity = { modelVersion: 'claude-x', responseId: 'req_1', includeThoughts: true };
const usage = { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150, prompt_tokens_details: { cached_tokens: 40 }, completion_tokens_details: { reasoning_tokens: 30 } };
const thinking = { type: 'thinking' as const, thinking: 'hmm', signature: 'sig' };

describe('a chat answer as a GenerateContentResponse', () => {
  it('puts thoughts, text and calls in parts, the reasoning state on the first call, and usage in Gemini\'s meaning', () => {
    const response = toGenerateContentResponse({
      id: 'x', object: 'chat.completion', created: 0, model: 'x', usage,
      choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: 'Let me look.', reasoning_content: 'hmm', reasoning_details: [thinking], tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] } }],
    }, identity);
    const parts = (response.candidates as any)[0].content.parts;
    expect(parts.map((p: any) => Object.keys(p).sort())).toEqual([['text', 'thought'], ['text'], ['functionCall', 'thoughtSignature']]);
    expect(parts[2].functionCall).toEqual({ id: 'toolu_1', name: 'f', args: { a: 1 } });
    expect(decodeReasoningState(parts[2].thoughtSignature)).toEqual([thinking]);
    expect(response).toMatchObject({ modelVersion: 'claude-x', responseId: 'req_1', candidates: [{ finishReason: 'STOP', index: 0 }] });
    expect(response.usageMetadata).toEqual({ promptTokenCount: 100, candidatesTokenCount: 20, thoughtsTokenCount: 30, cachedContentTokenCount: 40, totalTokenCount: 150 });
  });

  it('leaves thoughts out unless asked, and says MAX_TOKENS for a cut answer', () => {
    const response = toGenerateContentResponse({
      id: 'x', object: 'chat.completion', created: 0, model: 'x',
      choices: [{ index: 0, finish_reason: 'length', message: { role: 'assistant', content: 'Partial', reasoning_content: 'hmm' } }],
    }, { ...identity, includeThoughts: false });
    expect((response.candidates as any)[0]).toEqual({ content: { role: 'model', parts: [{ text: 'Partial' }] }, finishReason: 'MAX_TOKENS', index: 0 });
  });
});

describe('chat chunks as streamGenerateContent chunks', () => {
  async function* chunks(deltas: Array<Partial<ChatCompletionChunk>>): AsyncGenerator<ChatCompletionChunk> {
    for (const d of deltas) yield { id: 'x', object: 'chat.completion.chunk', created: 0, model: 'x', choices: [], ...d };
  }
  const collect = async (source: AsyncGenerator<Record<string, unknown>>) => {
    const out = [];
    for await (const item of source) out.push(item as any);
    return out;
  };

  it('sends text as it comes, a call whole with the finishing chunk, and the usage with it', async () => {
    const out = await collect(toGenerateContentStream(chunks([
      { choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
      { choices: [{ index: 0, delta: { reasoning_content: 'hmm' }, finish_reason: null }] },
      { choices: [{ index: 0, delta: { content: 'Looking' }, finish_reason: null }] },
      { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'toolu_1', type: 'function', function: { name: 'f', arguments: '{"a"' } }] }, finish_reason: null }] },
      { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: ':1}' } }], reasoning_details: [thinking] }, finish_reason: null }] },
      { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
      { choices: [], usage },
    ]), identity));
    expect(out.map((o) => o.candidates[0].content.parts)).toEqual([
      [{ text: 'hmm', thought: true }],
      [{ text: 'Looking' }],
      [{ functionCall: { id: 'toolu_1', name: 'f', args: { a: 1 } }, thoughtSignature: expect.any(String) }],
    ]);
    expect(out.at(-1)).toMatchObject({ candidates: [{ finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 100, thoughtsTokenCount: 30 }, modelVersion: 'claude-x', responseId: 'req_1' });
    expect(out.slice(0, -1).every((o) => !o.usageMetadata && !o.candidates[0].finishReason)).toBe(true);
  });

  it('passes an upstream failure on, without a last chunk', async () => {
    async function* failing(): AsyncGenerator<ChatCompletionChunk> {
      yield { id: 'x', object: 'chat.completion.chunk', created: 0, model: 'x', choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }] };
      throw new Error('cut');
    }
    const seen: unknown[] = [];
    await expect((async () => {
      for await (const item of toGenerateContentStream(failing(), identity)) seen.push(item);
    })()).rejects.toThrow('cut');
    expect(seen).toHaveLength(1);
  });
});
