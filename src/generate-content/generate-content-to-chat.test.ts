import { parseRequest } from '../errors/parse-request';
import { chatRequestSchema } from '../providers/chat-request';
import { generateContentRequestSchema } from './generate-content-request-schema';
import { toChatRequest } from './generate-content-to-chat';
import { carriedSignature } from './thought-signature-carrier';

const translate = (body: unknown, reasoningDefault: 'off' | 'on' | 'always' | undefined = 'off') =>
  toChatRequest(parseRequest(generateContentRequestSchema, body), 'm', { stream: false, reasoningDefault }) as Record<string, any>;

describe('a generateContent request as a chat request', () => {
  it('maps contents, the system instruction and the generation config, and passes the chat schema', () => {
    const chat = translate({
      systemInstruction: { role: 'user', parts: [{ text: 'Be brief.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Look: ' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }, { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } }] },
        { role: 'model', parts: [{ text: 'thinking…', thought: true }, { text: 'A cat.' }] },
        { parts: [{ text: 'And this?' }, { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/dog.jpg' } }] },
      ],
      generationConfig: { temperature: 0.2, topP: 0.9, topK: 20, maxOutputTokens: 500, stopSequences: ['END'], seed: 7, presencePenalty: 0.1, frequencyPenalty: 0.2 },
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
    });
    expect(chat.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Look: ' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }, { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=' } }] },
      { role: 'assistant', content: 'A cat.', reasoning_content: 'thinking…' },
      { role: 'user', content: [{ type: 'text', text: 'And this?' }, { type: 'image_url', image_url: { url: 'https://example.com/dog.jpg' } }] },
    ]);
    expect(chat).toMatchObject({ temperature: 0.2, top_p: 0.9, top_k: 20, max_completion_tokens: 500, stop: ['END'], seed: 7, presence_penalty: 0.1, frequency_penalty: 0.2 });
    expect(chat).not.toHaveProperty('safetySettings');
    expect(() => parseRequest(chatRequestSchema, chat)).not.toThrow();
  });

  it('gives calls without ids the same id on every turn, and matches responses by name, then by order', () => {
    const contents = [
      { role: 'user', parts: [{ text: 'Weather and time in Paris?' }] },
      { role: 'model', parts: [{ functionCall: { name: 'weather', args: { city: 'Paris' } } }, { functionCall: { name: 'time', args: {} } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'time', response: { now: '12:00' } } }, { functionResponse: { name: 'weather', response: { sky: 'clear' } } }] },
    ];
    const first = translate({ contents });
    const again = translate({ contents });
    expect(first.messages).toEqual(again.messages);
    const [, assistant, time, weather] = first.messages;
    expect(assistant.tool_calls.map((c: any) => [c.id, c.function.name, c.function.arguments])).toEqual([['call_1_0', 'weather', '{"city":"Paris"}'], ['call_1_1', 'time', '{}']]);
    expect([time.tool_call_id, JSON.parse(time.content)]).toEqual(['call_1_1', { now: '12:00' }]);
    expect(weather.tool_call_id).toBe('call_1_0');
  });

  it('keeps the client\'s call ids, and refuses a response that answers no call', () => {
    const chat = translate({ contents: [
      { role: 'user', parts: [{ text: 'x' }] },
      { role: 'model', parts: [{ functionCall: { id: 'toolu_1', name: 'f', args: {} } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'toolu_1', name: 'f', response: {} } }] },
    ] });
    expect(chat.messages[2].tool_call_id).toBe('toolu_1');
    expect(() => translate({ contents: [{ role: 'user', parts: [{ functionResponse: { name: 'f', response: {} } }] }] }))
      .toThrow(expect.objectContaining({ options: expect.objectContaining({ param: 'contents[0].parts[0].functionResponse' }) }));
  });

  it('reads the reasoning state back from a thought signature: the gateway\'s encoding, or a Gemini signature tied to its call', () => {
    const thinking = { type: 'thinking' as const, thinking: 'hmm', signature: 'sig-anthropic' };
    const chat = translate({ contents: [
      { role: 'user', parts: [{ text: 'x' }] },
      { role: 'model', parts: [{ functionCall: { id: 'toolu_1', name: 'f', args: {} }, thoughtSignature: carriedSignature([thinking]) }] },
      { role: 'user', parts: [{ functionResponse: { name: 'f', response: {} } }] },
      { role: 'model', parts: [{ functionCall: { name: 'g', args: {} }, thoughtSignature: 'EtoFCtcF' }] },
    ] });
    expect(chat.messages[1].reasoning_details).toEqual([thinking]);
    expect(chat.messages[3].reasoning_details).toEqual([{ type: 'thought_signature', signature: 'EtoFCtcF', tool_call_id: 'call_3_0' }]);
  });

  it('maps tool declarations, their OpenAPI schema and the calling mode', () => {
    const tools = [{ functionDeclarations: [
      { name: 'f', description: 'F', parameters: { type: 'OBJECT', properties: { a: { type: 'STRING' } } } },
      { name: 'g', parametersJsonSchema: { type: 'object', properties: {} } },
    ] }];
    const contents = [{ parts: [{ text: 'x' }] }];
    expect(translate({ contents, tools }).tools).toEqual([
      { type: 'function', function: { name: 'f', description: 'F', parameters: { type: 'object', properties: { a: { type: 'string' } } } } },
      { type: 'function', function: { name: 'g', parameters: { type: 'object', properties: {} } } },
    ]);
    expect(translate({ contents, tools, toolConfig: { functionCallingConfig: { mode: 'ANY' } } }).tool_choice).toBe('required');
    const one = translate({ contents, tools, toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['g'] } } });
    expect([one.tools.map((t: any) => t.function.name), one.tool_choice]).toEqual([['g'], { type: 'function', function: { name: 'g' } }]);
    expect(translate({ contents, tools, toolConfig: { functionCallingConfig: { mode: 'NONE' } } }).tool_choice).toBe('none');
  });

  it('turns a response schema into a JSON Schema output format', () => {
    const contents = [{ parts: [{ text: 'x' }] }];
    expect(translate({ contents, generationConfig: { responseMimeType: 'application/json', responseSchema: { type: 'OBJECT', properties: { n: { type: 'NUMBER' } } } } }).response_format)
      .toEqual({ type: 'json_schema', json_schema: { name: 'response', schema: { type: 'object', properties: { n: { type: 'number' } } }, strict: false } });
    expect(translate({ contents, generationConfig: { responseMimeType: 'application/json' } }).response_format).toEqual({ type: 'json_object' });
    expect(() => translate({ contents, generationConfig: { responseMimeType: 'text/x.enum' } })).toThrow(expect.objectContaining({ code: 'unsupported_parameter' }));
  });

  it.each([
    [{ thinkingBudget: 2048 }, 'off', { max_tokens: 2048 }],
    [{ thinkingBudget: 0 }, 'off', undefined],
    [{ thinkingBudget: 0 }, 'always', { max_tokens: 0 }],
    [{ thinkingBudget: -1 }, 'off', { effort: 'medium' }],
    [{ thinkingBudget: -1 }, 'on', undefined],
    [{ thinkingLevel: 'HIGH' }, 'always', { effort: 'high' }],
  ] as const)('thinking %j on a family whose default is %s asks for reasoning %j', (thinkingConfig, reasoningDefault, reasoning) => {
    expect(translate({ contents: [{ parts: [{ text: 'x' }] }], generationConfig: { thinkingConfig } }, reasoningDefault).reasoning).toEqual(reasoning);
  });
});
