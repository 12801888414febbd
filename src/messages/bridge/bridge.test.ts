import type { ChatCompletion, ChatCompletionChunk, ChatDelta } from '../../providers/chat-types';
import { messagesRequestSchema } from '../messages-request-schema';
import { decodeReasoningState, encodeReasoningState } from '../../chat/carried-reasoning-state';
import { toMessage } from './chat-to-message';
import { toMessageEvents } from './message-events';
import { toChatRequest } from './messages-to-chat';

const parse = (raw: object) => messagesRequestSchema.parse({ model: 'm', max_tokens: 1000, ...raw });
const geminiSignature = { type: 'thought_signature' as const, signature: 'CiQB0e2Kb', tool_call_id: 'call_1' };

describe('the Messages -> chat bridge', () => {
  it('maps the system prompt, turns, images, documents, tool calls and results, and earlier thinking', () => {
    const req = parse({
      system: [{ type: 'text', text: 'Be brief', cache_control: { type: 'ephemeral', ttl: '1h' } }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' }, cache_control: { type: 'ephemeral' } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' }, title: 'brief.pdf' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hmm', signature: 'sig-1' },
            { type: 'thinking', thinking: '', signature: encodeReasoningState([geminiSignature]) },
            { type: 'redacted_thinking', data: 'sealed' },
            { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_1', is_error: true, content: [{ type: 'text', text: 'no network' }, { type: 'image', source: { type: 'url', url: 'https://x/y.png' } }] },
            { type: 'text', text: 'Try again' },
          ],
        },
      ],
      tools: [{ name: 'get_weather', description: 'Weather', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral', ttl: '5m' } }],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      output_config: { format: { type: 'json_schema', schema: { type: 'object' } } },
      thinking: { type: 'enabled', budget_tokens: 2048 },
      stop_sequences: ['END'],
      temperature: 1,
      metadata: { user_id: 'u-1' },
      stream: true,
    });
    expect(toChatRequest(req)).toEqual({
      model: 'm',
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Be brief', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' }, cache_control: { type: 'ephemeral' } },
            { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBE', filename: 'brief.pdf' } },
          ],
        },
        {
          role: 'assistant', content: null, reasoning_content: 'hmm',
          reasoning_details: [{ type: 'thinking', thinking: 'hmm', signature: 'sig-1' }, geminiSignature, { type: 'redacted_thinking', data: 'sealed' }],
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'Error: no network' },
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x/y.png' } }, { type: 'text', text: 'Try again' }] },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object' } }, cache_control: { type: 'ephemeral', ttl: '5m' } }],
      tool_choice: 'required',
      response_format: { type: 'json_schema', json_schema: { name: 'output', schema: { type: 'object' }, strict: true } },
      parallel_tool_calls: false,
      reasoning: { max_tokens: 2048 },
      max_tokens: 1000,
      temperature: 1,
      stop: ['END'],
      user: 'u-1',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('asks for reasoning by effort for adaptive thinking, and nothing when thinking is off or has no effort', () => {
    expect(toChatRequest(parse({ messages: [{ role: 'user', content: 'Hi' }], thinking: { type: 'adaptive' }, output_config: { effort: 'max' } })).reasoning).toEqual({ effort: 'xhigh' });
    expect(toChatRequest(parse({ messages: [{ role: 'user', content: 'Hi' }], output_config: { effort: 'low' } })).reasoning).toEqual({ effort: 'low' });
    expect(toChatRequest(parse({ messages: [{ role: 'user', content: 'Hi' }], thinking: { type: 'adaptive' } }))).not.toHaveProperty('reasoning');
    expect(toChatRequest(parse({ messages: [{ role: 'user', content: 'Hi' }], thinking: { type: 'disabled' }, output_config: { effort: 'high' } }))).not.toHaveProperty('reasoning');
  });

  it('maps tool_choice tool, none and auto', () => {
    const tools = [{ name: 'f', input_schema: { type: 'object' } }];
    const choice = (tool_choice: object) => toChatRequest(parse({ messages: [{ role: 'user', content: 'Hi' }], tools, tool_choice }));
    expect(choice({ type: 'tool', name: 'f' })).toMatchObject({ tool_choice: { type: 'function', function: { name: 'f' } } });
    expect(choice({ type: 'none' })).toMatchObject({ tool_choice: 'none' });
    expect(choice({ type: 'auto' })).toMatchObject({ tool_choice: 'auto' });
    expect(choice({ type: 'auto' })).not.toHaveProperty('parallel_tool_calls');
  });
});

describe('a chat completion as a Message', () => {
  const completion = (message: object, finish_reason: string, usage?: object): ChatCompletion => ({
    id: 'x', object: 'chat.completion', created: 0, model: 'x',
    choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason }],
    usage: (usage ?? { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, prompt_tokens_details: { cached_tokens: 60, cache_write_tokens: 10 } }) as never,
  });

  it('puts thinking first, then text, then tool calls, with usage in Anthropic\'s meaning', () => {
    const message = toMessage(completion({
      content: 'Calling', reasoning_content: 'let me see', reasoning_details: [geminiSignature],
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
    }, 'tool_calls'), 'msg_1', 'gemini-2.5-flash');
    expect(message).toEqual({
      id: 'msg_1', type: 'message', role: 'assistant', model: 'gemini-2.5-flash',
      content: [
        { type: 'thinking', thinking: 'let me see', signature: encodeReasoningState([geminiSignature]) },
        { type: 'text', text: 'Calling' },
        { type: 'tool_use', id: 'call_1', name: 'f', input: { a: 1 } },
      ],
      stop_reason: 'tool_use', stop_sequence: null,
      usage: { input_tokens: 30, cache_read_input_tokens: 60, cache_creation_input_tokens: 10, output_tokens: 20 },
    });
  });

  it.each([['stop', 'end_turn'], ['length', 'max_tokens'], ['tool_calls', 'tool_use'], ['content_filter', 'refusal'], ['something_new', 'end_turn']])('reads finish_reason %s as stop_reason %s', (finish, stop) => {
    expect(toMessage(completion({ content: 'x' }, finish), 'm', 'm').stop_reason).toBe(stop);
  });

  it('keeps an Anthropic signature as it is, and unsigned reasoning text as an unsigned block', () => {
    const signed = toMessage(completion({ content: 'x', reasoning_content: 'a', reasoning_details: [{ type: 'thinking', thinking: 'a', signature: 'sig' }] }, 'stop'), 'm', 'm');
    expect(signed.content).toEqual([{ type: 'thinking', thinking: 'a', signature: 'sig' }, { type: 'text', text: 'x' }]);
    const unsigned = toMessage(completion({ content: 'x', reasoning_content: 'a' }, 'stop'), 'm', 'm');
    expect(unsigned.content).toEqual([{ type: 'thinking', thinking: 'a', signature: '' }, { type: 'text', text: 'x' }]);
  });
});

describe('chat chunks as Anthropic stream events', () => {
  const chunk = (delta: ChatDelta, finish_reason: string | null = null): ChatCompletionChunk => ({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'x', choices: [{ index: 0, delta, finish_reason }] });
  async function* chunks(list: ChatCompletionChunk[]): AsyncGenerator<ChatCompletionChunk> {
    yield* list;
  }
  const collect = async (list: ChatCompletionChunk[]) => {
    const events = [];
    for await (const event of toMessageEvents(chunks(list), 'msg_1', 'm')) events.push(event);
    return events;
  };

  it('opens, fills and closes each block in turn, and ends with the stop reason and usage', async () => {
    const usageChunk: ChatCompletionChunk = { id: 'x', object: 'chat.completion.chunk', created: 0, model: 'x', choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } };
    const events = await collect([
      chunk({ role: 'assistant', reasoning_content: 'hm' }),
      chunk({ reasoning_content: 'm' }),
      chunk({ reasoning_details: [{ type: 'thinking', thinking: 'hmm', signature: 'sig' }] }),
      chunk({ content: 'Hi' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a"' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: ':1}' } }] }),
      chunk({ reasoning_details: [geminiSignature] }),
      chunk({}, 'tool_calls'),
      usageChunk,
    ]);
    expect(events).toEqual([
      { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 } } },
      { type: 'ping' },
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hm' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'm' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hi' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'call_1', name: 'f', input: {} } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"a"' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: ':1}' } },
      { type: 'content_block_stop', index: 2 },
      { type: 'content_block_start', index: 3, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 3, delta: { type: 'signature_delta', signature: encodeReasoningState([geminiSignature]) } },
      { type: 'content_block_stop', index: 3 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 5 } },
      { type: 'message_stop' },
    ]);
  });

  it('sends a redacted thinking block whole', async () => {
    const events = await collect([chunk({ reasoning_details: [{ type: 'redacted_thinking', data: 'sealed' }] }), chunk({ content: 'x' }, 'stop')]);
    expect(events.slice(2, 4)).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'redacted_thinking', data: 'sealed' } },
      { type: 'content_block_stop', index: 0 },
    ]);
  });

  it('throws a failure of the chat stream on, for the writer\'s error event', async () => {
    async function* failing(): AsyncGenerator<ChatCompletionChunk> {
      yield chunk({ content: 'x' });
      throw new Error('upstream cut');
    }
    const seen: string[] = [];
    await expect((async () => {
      for await (const event of toMessageEvents(failing(), 'msg_1', 'm')) seen.push(event.type);
    })()).rejects.toThrow('upstream cut');
    expect(seen).toEqual(['message_start', 'ping', 'content_block_start', 'content_block_delta']);
  });
});

describe('a Gemini thought signature carried in a thinking block', () => {
  it('reads back what it wrote, and nothing from an Anthropic signature', () => {
    expect(decodeReasoningState(encodeReasoningState([geminiSignature]))).toEqual([geminiSignature]);
    expect(decodeReasoningState(encodeReasoningState([{ type: 'thought_signature', signature: 's' }]))).toEqual([{ type: 'thought_signature', signature: 's' }]);
    expect(decodeReasoningState('EqQBCkYIBxgCKkB')).toBeUndefined();
    expect(decodeReasoningState('gwrs1.!!!')).toBeUndefined();
  });
});
