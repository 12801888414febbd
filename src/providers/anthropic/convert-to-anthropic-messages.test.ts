import type { ChatMessage } from '../chat-request';
import { convertToAnthropicMessages, imageSource } from './convert-to-anthropic-messages';

const thinkingOn = { thinkingEnabled: true };
const thinkingOff = { thinkingEnabled: false };

describe('convertToAnthropicMessages', () => {
  it('moves system and developer texts, in order, to the top-level system', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
      { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }, { type: 'text', text: 'No emoji.' }] },
    ];
    expect(convertToAnthropicMessages(messages, thinkingOff)).toEqual({
      system: [
        { type: 'text', text: 'Be brief.' },
        { type: 'text', text: 'Answer in French.' },
        { type: 'text', text: 'No emoji.' },
      ],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
  });

  it('turns tool calls into tool_use blocks and tool messages into one user turn of tool_result blocks, merged with the next user text', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [
          { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'toolu_2', type: 'function', function: { name: 'get_weather', arguments: '' } },
        ],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: '18°C' },
      { role: 'tool', tool_call_id: 'toolu_2', content: [{ type: 'text', text: '21°C' }] },
      { role: 'user', content: 'And tomorrow?' },
    ];
    expect(convertToAnthropicMessages(messages, thinkingOff).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me look.' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '18°C' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: '21°C' }] },
          { type: 'text', text: 'And tomorrow?' },
        ],
      },
    ]);
  });

  it('merges neighbouring turns of one role and leaves out empty texts', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'One' },
      { role: 'user', content: [{ type: 'text', text: '' }, { type: 'text', text: 'Two' }] },
      { role: 'assistant', content: '', tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{}' } }] },
    ];
    expect(convertToAnthropicMessages(messages, thinkingOff).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'One' }, { type: 'text', text: 'Two' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] },
    ]);
  });

  it('sends a PDF as a base64 document, a text file as a text document, and refuses other kinds by name', () => {
    const file = (mediaType: string, data: string, filename?: string): ChatMessage => ({
      role: 'user', content: [{ type: 'file', file: { file_data: `data:${mediaType};base64,${data}`, ...(filename ? { filename } : {}) } }],
    });
    const text = Buffer.from('hello, world').toString('base64');
    expect(convertToAnthropicMessages([file('application/pdf', 'JVBERi0=', 'a.pdf')], thinkingOff).messages[0]!.content).toEqual([
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' }, title: 'a.pdf' },
    ]);
    expect(convertToAnthropicMessages([file('text/csv', text)], thinkingOff).messages[0]!.content).toEqual([
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'hello, world' } },
    ]);
    expect(() => convertToAnthropicMessages([file('application/zip', 'UEsDBA==', 'x.zip')], thinkingOff)).toThrow('not application/zip ("x.zip")');
  });

  it('sends images inline as base64 or by URL', () => {
    const messages: ChatMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare' },
          { type: 'image_url', image_url: { url: 'data:image/jpg;base64,AAAA\nBBBB' } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.png', detail: 'high' } },
        ],
      },
    ];
    expect(convertToAnthropicMessages(messages, thinkingOff).messages[0]!.content).toEqual([
      { type: 'text', text: 'Compare' },
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'AAAABBBB' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
    ]);
    expect(imageSource('data:image/PNG;base64,iVBO')).toEqual({ type: 'base64', media_type: 'image/png', data: 'iVBO' });
  });

  it('keeps the cache_control of image and document parts', () => {
    const breakpoint = { type: 'ephemeral' as const };
    const messages: ChatMessage[] = [{
      role: 'user',
      content: [
        { type: 'image_url', image_url: { url: 'https://example.com/cat.png' }, cache_control: breakpoint },
        { type: 'file', file: { file_data: 'data:text/plain;base64,aGk=', filename: 'a.txt' }, cache_control: breakpoint },
      ],
    }];
    expect(convertToAnthropicMessages(messages, thinkingOff).messages[0]!.content).toEqual([
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' }, cache_control: breakpoint },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'hi' }, title: 'a.txt', cache_control: breakpoint },
    ]);
  });

  it('puts the signed thinking of an earlier answer first in its turn, unchanged and in order, and ignores other providers\' items', () => {
    const assistant: ChatMessage = {
      role: 'assistant',
      content: 'Checking.',
      reasoning_details: [
        { type: 'thought_signature', signature: 'gemini-only' },
        { type: 'thinking', thinking: 'I should call the tool.', signature: 'sig-1' },
        { type: 'redacted_thinking', data: 'opaque' },
      ],
      tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }],
    };
    const messages: ChatMessage[] = [{ role: 'user', content: 'Go' }, assistant, { role: 'tool', tool_call_id: 'toolu_1', content: 'found' }];
    expect(convertToAnthropicMessages(messages, thinkingOn).messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'I should call the tool.', signature: 'sig-1' },
        { type: 'redacted_thinking', data: 'opaque' },
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { q: 'x' } },
      ],
    });
    expect(convertToAnthropicMessages(messages, thinkingOff).messages[1]!.content.map((block) => block.type)).toEqual(['text', 'tool_use']);
  });

  it('refuses tool-call arguments that are not a JSON object, naming the field', () => {
    const withArguments = (args: string): ChatMessage[] => [
      { role: 'user', content: 'Go' },
      { role: 'assistant', tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }, { id: 'b', type: 'function', function: { name: 'f', arguments: args } }] },
    ];
    for (const args of ['{"city":', '[1,2]', '"text"']) {
      expect(() => convertToAnthropicMessages(withArguments(args), thinkingOff)).toThrow(
        expect.objectContaining({ name: 'UnsupportedParameterError', param: 'messages[1].tool_calls[1].function.arguments' }),
      );
    }
  });
});
