import { anthropicMessageSchema } from './anthropic-api';
import { convertAnthropicMessage } from './convert-anthropic-message';

const message = (content: unknown[], stopReason = 'end_turn') => ({
  id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content, stop_reason: stopReason, stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
});

describe('convertAnthropicMessage', () => {
  it('joins texts and thoughts, keeps every thinking block in order, and skips block types it does not know', () => {
    const wire = anthropicMessageSchema.parse(
      message([
        { type: 'thinking', thinking: 'First, ', signature: 'sig-a' },
        { type: 'redacted_thinking', data: 'opaque' },
        { type: 'thinking', thinking: 'then.', signature: 'sig-b' },
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } },
        { type: 'text', text: 'Hello ', citations: null },
        { type: 'text', text: 'world.' },
        { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { q: 'x' } },
      ], 'refusal'),
    );
    expect(convertAnthropicMessage(wire, { now: 1_700_000_000_000 })).toEqual({
      id: 'msg_1',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'claude-sonnet-4-5',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Hello world.',
            reasoning_content: 'First, then.',
            reasoning_details: [
              { type: 'thinking', thinking: 'First, ', signature: 'sig-a' },
              { type: 'redacted_thinking', data: 'opaque' },
              { type: 'thinking', thinking: 'then.', signature: 'sig-b' },
            ],
            tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }],
          },
          finish_reason: 'content_filter',
        },
      ],
    });
  });

  it('gives null content to an answer that only calls tools', () => {
    const wire = anthropicMessageSchema.parse(message([{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }], 'tool_use'));
    expect(convertAnthropicMessage(wire).choices[0]!.message).toEqual({
      role: 'assistant', content: null, tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
    });
  });

  it('shows the forced answer tool\'s input as the content, JSON text, with finish_reason stop and no tool call', () => {
    const wire = anthropicMessageSchema.parse(message([
      { type: 'text', text: 'Here it is:' },
      { type: 'tool_use', id: 'toolu_1', name: 'forecast', input: { city: 'Paris', rain: false } },
    ], 'tool_use'));
    const choice = convertAnthropicMessage(wire, { answerTool: 'forecast' }).choices[0]!;
    expect(choice).toEqual({ index: 0, message: { role: 'assistant', content: '{"city":"Paris","rain":false}' }, finish_reason: 'stop' });
    expect(convertAnthropicMessage(wire).choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('refuses a known block that lacks what it must carry', () => {
    expect(anthropicMessageSchema.safeParse(message([{ type: 'text' }])).success).toBe(false);
  });
});
