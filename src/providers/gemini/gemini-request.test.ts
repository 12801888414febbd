import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UpstreamChatRequest } from '../chat-adapter';
import { UnsupportedParameterError } from '../unsupported-parameter';
import { GEMINI_IMAGE_DOWNLOAD_LIMITS } from './download-image';
import { toGeminiRequest } from './gemini-request';

const request = (fields: Partial<UpstreamChatRequest>): UpstreamChatRequest => ({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], ...fields });
const refusal = (fields: Partial<UpstreamChatRequest>) => toGeminiRequest(request(fields)).catch((error: unknown) => error as UnsupportedParameterError);

const weatherCall = { id: 'call_w', type: 'function' as const, function: { name: 'get_weather', arguments: '{"city":"Paris"}' } };
const timeCall = { id: 'call_t', type: 'function' as const, function: { name: 'get_time', arguments: '' } };

describe('messages as Gemini contents', () => {
  it('puts system and developer text in systemInstruction and maps the roles', async () => {
    const body = await toGeminiRequest(
      request({
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'developer', content: [{ type: 'text', text: 'Use metric units.' }] },
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello!' },
          { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
        ],
      }),
    );
    expect(body).toEqual({
      systemInstruction: { parts: [{ text: 'Be brief.' }, { text: 'Use metric units.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Hi' }] },
        { role: 'model', parts: [{ text: 'Hello!' }] },
        { role: 'user', parts: [{ text: 'Weather?' }] },
      ],
    });
  });

  it('sends tool calls as functionCall parts and their results, by function name, in one user turn', async () => {
    const body = await toGeminiRequest(
      request({
        messages: [
          { role: 'user', content: 'Weather and time in Paris?' },
          { role: 'assistant', content: '', tool_calls: [weatherCall, timeCall] },
          { role: 'tool', tool_call_id: 'call_w', content: '{"temperature_c":21}' },
          { role: 'tool', tool_call_id: 'call_t', content: [{ type: 'text', text: '14:00' }] },
          { role: 'user', content: 'Thanks' },
        ],
      }),
    );
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather and time in Paris?' }] },
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }, { functionCall: { name: 'get_time', args: {} } }] },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_weather', response: { temperature_c: 21 } } },
          { functionResponse: { name: 'get_time', response: { result: '14:00' } } },
          { text: 'Thanks' },
        ],
      },
    ]);
  });

  it('wraps a JSON result that is not an object', async () => {
    const body = await toGeminiRequest(
      request({ messages: [{ role: 'user', content: 'x' }, { role: 'assistant', tool_calls: [weatherCall] }, { role: 'tool', tool_call_id: 'call_w', content: '[1,2]' }] }),
    );
    expect(body.contents[2]).toEqual({ role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { result: '[1,2]' } } }] });
  });

  it('refuses arguments that are not a JSON object, and a result for an unknown call, naming the field', async () => {
    const badJson = await refusal({ messages: [{ role: 'user', content: 'x' }, { role: 'assistant', tool_calls: [{ ...weatherCall, function: { name: 'f', arguments: '{city:' } }] }] });
    expect(badJson).toBeInstanceOf(UnsupportedParameterError);
    expect(badJson).toMatchObject({ param: 'messages[1].tool_calls[0].function.arguments', message: expect.stringContaining('is not valid JSON') });
    const notObject = await refusal({ messages: [{ role: 'user', content: 'x' }, { role: 'assistant', tool_calls: [{ ...weatherCall, function: { name: 'f', arguments: '[1]' } }] }] });
    expect(notObject).toMatchObject({ param: 'messages[1].tool_calls[0].function.arguments', message: expect.stringContaining('must be a JSON object') });
    const orphan = await refusal({ messages: [{ role: 'user', content: 'x' }, { role: 'tool', tool_call_id: 'call_nobody', content: 'ok' }] });
    expect(orphan).toMatchObject({ param: 'messages[1].tool_call_id' });
  });
});

describe('thought signatures sent back', () => {
  it('puts each signature on the call it came with, or on the first text part, and ignores other reasoning items', async () => {
    const body = await toGeminiRequest(
      request({
        messages: [
          { role: 'user', content: 'x' },
          {
            role: 'assistant',
            content: [{ type: 'text', text: 'Checking.' }, { type: 'text', text: ' Both.' }],
            tool_calls: [weatherCall, timeCall],
            reasoning_details: [
              { type: 'thinking', thinking: 'Anthropic thinking', signature: 'anthropic-sig' },
              { type: 'thought_signature', signature: 'sig-time', tool_call_id: 'call_t' },
              { type: 'thought_signature', signature: 'sig-text' },
              { type: 'thought_signature', signature: 'sig-gone', tool_call_id: 'call_unknown' },
            ],
          },
          { role: 'tool', tool_call_id: 'call_w', content: 'sunny' },
          { role: 'tool', tool_call_id: 'call_t', content: 'noon' },
        ],
      }),
    );
    expect(body.contents[1]).toEqual({
      role: 'model',
      parts: [
        { text: 'Checking.', thoughtSignature: 'sig-text' },
        { text: ' Both.' },
        { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
        { functionCall: { name: 'get_time', args: {} }, thoughtSignature: 'sig-time' },
      ],
    });
  });
});

describe('images', () => {
  const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/cat.png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const imageMessage = (url: string): UpstreamChatRequest['messages'] => [
    { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url } }] },
  ];
  const loopback = { imageDownload: { ...GEMINI_IMAGE_DOWNLOAD_LIMITS, allowedProtocols: ['http:'], allowPrivateAddresses: true } };

  it('unpacks a data URL into inlineData', async () => {
    const body = await toGeminiRequest(request({ messages: imageMessage('data:image/jpg;base64,/9j/4A\nAQ=') }));
    expect(body.contents[0]!.parts[1]).toEqual({ inlineData: { mimeType: 'image/jpeg', data: '/9j/4AAQ=' } });
  });

  it('downloads a URL into inlineData', async () => {
    const body = await toGeminiRequest(request({ messages: imageMessage(`${origin}/cat.png`) }), loopback);
    expect(body.contents[0]!.parts).toEqual([{ text: 'What is this?' }, { inlineData: { mimeType: 'image/png', data: PNG.toString('base64') } }]);
  });

  it('refuses a failed download, naming the field and the reason', async () => {
    const notImage = await toGeminiRequest(request({ messages: imageMessage(`${origin}/page`) }), loopback).catch((e) => e);
    expect(notImage).toBeInstanceOf(UnsupportedParameterError);
    expect(notImage).toMatchObject({ param: 'messages[0].content[1].image_url.url', message: expect.stringContaining('the content type is text/html') });
    const plainHttp = await toGeminiRequest(request({ messages: imageMessage(`${origin}/cat.png`) })).catch((e) => e);
    expect(plainHttp).toMatchObject({ param: 'messages[0].content[1].image_url.url', message: expect.stringContaining('only https: URLs are fetched') });
  });
});

describe('tools and tool_choice', () => {
  const tools: UpstreamChatRequest['tools'] = [
    { type: 'function', function: { name: 'get_weather', description: 'Weather now', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
    { type: 'function', function: { name: 'ping' } },
  ];

  it('declares functions with their JSON Schema as parametersJsonSchema', async () => {
    const body = await toGeminiRequest(request({ tools }));
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          { name: 'get_weather', description: 'Weather now', parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } } },
          { name: 'ping' },
        ],
      },
    ]);
    expect(body.toolConfig).toBeUndefined();
  });

  it.each([
    ['auto', { mode: 'AUTO' }],
    ['none', { mode: 'NONE' }],
    ['required', { mode: 'ANY' }],
    [{ type: 'function', function: { name: 'ping' } }, { mode: 'ANY', allowedFunctionNames: ['ping'] }],
  ] as const)('maps tool_choice %j to %j', async (toolChoice, functionCallingConfig) => {
    const body = await toGeminiRequest(request({ tools, tool_choice: toolChoice }));
    expect(body.toolConfig).toEqual({ functionCallingConfig });
  });
});

describe('generationConfig', () => {
  it('maps the sampling and length fields, and leaves the config out when nothing is set', async () => {
    const body = await toGeminiRequest(
      request({ temperature: 0.2, top_p: 0.9, top_k: 40, max_tokens: 100, max_completion_tokens: 200, stop: 'END', n: 2, seed: 7, presence_penalty: 0.5, frequency_penalty: -0.5, user: 'u1' }),
    );
    expect(body.generationConfig).toEqual({
      temperature: 0.2, topP: 0.9, topK: 40, maxOutputTokens: 200, stopSequences: ['END'], candidateCount: 2, seed: 7, presencePenalty: 0.5, frequencyPenalty: -0.5,
    });
    expect((await toGeminiRequest(request({}))).generationConfig).toBeUndefined();
  });

  it.each([
    [{ enabled: false }, { thinkingBudget: 0 }],
    [{ enabled: true, budgetTokens: 2048 }, { thinkingBudget: 2048 }],
    [{ enabled: true, budgetTokens: 4096, includeThoughts: true }, { thinkingBudget: 4096, includeThoughts: true }],
    [{ enabled: true, effort: 'low', includeThoughts: true }, { thinkingLevel: 'low', includeThoughts: true }],
    [{ enabled: true, includeThoughts: true }, { includeThoughts: true }],
  ])('expresses thinking %j as thinkingConfig %j', async (thinking, thinkingConfig) => {
    expect((await toGeminiRequest(request({ thinking }))).generationConfig).toEqual({ thinkingConfig });
  });

  it('sends no thinkingConfig without a decision, leaving the dynamic default', async () => {
    expect((await toGeminiRequest(request({ thinking: { enabled: true } }))).generationConfig).toBeUndefined();
  });

  it('asks for JSON, with the schema as given', async () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };
    expect((await toGeminiRequest(request({ response_format: { type: 'json_object' } }))).generationConfig).toEqual({ responseMimeType: 'application/json' });
    expect((await toGeminiRequest(request({ response_format: { type: 'json_schema', json_schema: { name: 'a', schema } } }))).generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseJsonSchema: schema,
    });
    expect((await toGeminiRequest(request({ response_format: { type: 'text' } }))).generationConfig).toBeUndefined();
  });
});

describe('parameters Gemini cannot honour', () => {
  it.each([
    ['logprobs', { logprobs: true }],
    ['top_logprobs', { top_logprobs: 2 }],
    ['logit_bias', { logit_bias: { '1': 5 } }],
    ['parallel_tool_calls', { parallel_tool_calls: false }],
  ] as const)('refuses %s', async (param, fields) => {
    const err = await refusal(fields);
    expect(err).toBeInstanceOf(UnsupportedParameterError);
    expect(err).toMatchObject({ param, message: expect.stringContaining(`"${param}" is not supported`) });
  });

  it('accepts the values that ask for nothing Gemini lacks', async () => {
    await expect(toGeminiRequest(request({ logprobs: false, logit_bias: {}, parallel_tool_calls: true }))).resolves.toBeDefined();
  });
});
