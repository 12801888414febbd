import type { ChatCompletionChunk } from '../../providers/chat-types';
import { responsesRequestSchema } from '../responses-request-schema';
import { checkBridgeable } from './bridge-limits';
import { encodeReasoningState, decodeReasoningState } from '../../chat/carried-reasoning-state';
import { toResponseEvents } from './response-events';
import { toChatRequest } from './responses-to-chat';

const parse = (raw: object) => responsesRequestSchema.parse({ model: 'm', ...raw });
const thinking = { type: 'thinking' as const, thinking: 'hmm', signature: 'sig-1' };

describe('the Responses -> chat bridge', () => {
  it('maps instructions, messages, reasoning with its signed state, calls and their outputs', () => {
    const req = parse({
      instructions: 'Be brief',
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Weather?' }, { type: 'input_image', image_url: 'data:image/png;base64,AAAA' }] },
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 'hmm' }], encrypted_content: encodeReasoningState([thinking]) },
        { type: 'function_call', call_id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'toolu_1', output: '{"t":21}' },
      ],
      tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object' } }],
      max_output_tokens: 500,
      text: { format: { type: 'json_schema', name: 'out', schema: { type: 'object' } } },
      reasoning: { effort: 'low' },
      prompt_cache_key: 'shared-prefix',
      prompt_cache_retention: '24h',
    });
    expect(() => checkBridgeable(req, 'claude-x')).not.toThrow();
    expect(toChatRequest(req)).toEqual({
      model: 'm',
      messages: [
        { role: 'system', content: 'Be brief' },
        { role: 'user', content: [{ type: 'text', text: 'Weather?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
        {
          role: 'assistant', content: null, reasoning_content: 'hmm', reasoning_details: [thinking],
          tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: '{"t":21}' },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
      max_completion_tokens: 500,
      reasoning: { effort: 'low' },
      response_format: { type: 'json_schema', json_schema: { name: 'out', schema: { type: 'object' } } },
      prompt_cache_key: 'shared-prefix',
      prompt_cache_retention: '24h',
    });
  });

  it('reads back only its own reasoning state', () => {
    expect(decodeReasoningState(encodeReasoningState([thinking]))).toEqual([thinking]);
    expect(decodeReasoningState('gAAAAABopenai-encrypted')).toBeUndefined();
    expect(decodeReasoningState('gwrs1.not-json')).toBeUndefined();
  });

  it.each([
    [{ store: true }, 'store'],
    [{ previous_response_id: 'resp_1' }, 'previous_response_id'],
    [{ conversation: 'conv_1' }, 'conversation'],
    [{ prompt: { id: 'p' } }, 'prompt'],
    [{ tools: [{ type: 'file_search' }] }, 'tools[0].type'],
    [{ input: [{ type: 'item_reference', id: 'msg_1' }] }, 'input[0].type'],
    [{ input: [{ type: 'reasoning', summary: [], encrypted_content: 'gAAAAAB-openai' }] }, 'input[0].encrypted_content'],
  ])('refuses %j as protocol_bridge_unsupported', (extra, param) => {
    expect(() => checkBridgeable(parse({ input: 'Hi', ...extra }), 'claude-x')).toThrow(expect.objectContaining({ code: 'protocol_bridge_unsupported', options: expect.objectContaining({ param }) }));
  });

  it('lets through store false and harmless defaults', () => {
    expect(() => checkBridgeable(parse({ input: 'Hi', store: false, truncation: 'disabled', service_tier: 'auto' }), 'claude-x')).not.toThrow();
  });
});

describe('chat chunks -> Responses events', () => {
  const chunk = (delta: ChatCompletionChunk['choices'][number]['delta'], finish: string | null = null, usage?: ChatCompletionChunk['usage']): ChatCompletionChunk => ({
    id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: usage ? [] : [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}),
  });
  async function* chunks() {
    yield chunk({ role: 'assistant', content: '' });
    yield chunk({ reasoning_content: 'Let me ' });
    yield chunk({ reasoning_content: 'think.' });
    yield chunk({ reasoning_details: [thinking] });
    yield chunk({ content: 'Calling.' });
    yield chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } }] });
    yield chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a":' } }] });
    yield chunk({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] });
    yield chunk({ reasoning_details: [{ type: 'thought_signature', signature: 'late', tool_call_id: 'call_1' }] });
    yield chunk({}, 'tool_calls');
    yield chunk({}, null, { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, completion_tokens_details: { reasoning_tokens: 2 } });
  }

  it('synthesizes the official order, numbered, ending with the whole response', async () => {
    const events = [];
    for await (const event of toResponseEvents(parse({ input: 'Hi' }), chunks(), 'resp_1', 0)) events.push(event);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events.map((e) => e.type)).toEqual([
      'response.created', 'response.in_progress',
      'response.output_item.added', 'response.reasoning_summary_part.added', 'response.reasoning_summary_text.delta', 'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done', 'response.reasoning_summary_part.done', 'response.output_item.done',
      'response.output_item.added', 'response.content_part.added', 'response.output_text.delta',
      'response.output_text.done', 'response.content_part.done', 'response.output_item.done',
      'response.output_item.added', 'response.function_call_arguments.delta', 'response.function_call_arguments.delta',
      'response.function_call_arguments.done', 'response.output_item.done',
      'response.output_item.added', 'response.output_item.done',
      'response.completed',
    ]);
    const final = events.at(-1)!.response as { output: any[]; usage: any; status: string };
    expect(final.status).toBe('completed');
    expect(final.output.map((item) => item.type)).toEqual(['reasoning', 'message', 'function_call', 'reasoning']);
    expect(final.output[0]).toMatchObject({ summary: [{ type: 'summary_text', text: 'Let me think.' }] });
    expect(decodeReasoningState(final.output[0].encrypted_content)).toEqual([thinking]);
    expect(final.output[2]).toMatchObject({ call_id: 'call_1', name: 'f', arguments: '{"a":1}', status: 'completed' });
    expect(decodeReasoningState(final.output[3].encrypted_content)).toEqual([{ type: 'thought_signature', signature: 'late', tool_call_id: 'call_1' }]);
    expect(final.usage).toEqual({ input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 2 }, total_tokens: 15 });
  });
});
