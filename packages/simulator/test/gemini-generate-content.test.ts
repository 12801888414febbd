import { type GeminiErrorBody, answerText, generate, postGemini, userText } from './gemini-test-kit';
import { useSimulator } from './simulator-test-kit';

const simulator = useSimulator();

async function refusal(model: string, body: unknown, init?: Parameters<typeof postGemini>[4]): Promise<{ status: number; body: GeminiErrorBody }> {
  const response = await postGemini(simulator.current, model, 'generateContent', body, init);
  return { status: response.status, body: (await response.json()) as GeminiErrorBody };
}

const weatherTool = {
  functionDeclarations: [
    { name: 'get_weather', description: 'Weather now', parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    { name: 'get_time', parameters: { type: 'OBJECT', properties: { zone: { type: 'STRING', enum: ['UTC', 'CET'] } }, required: ['zone'] } },
  ],
};

describe('authentication', () => {
  it('refuses a request without a key as Google front end does, and a blank key as API_KEY_INVALID', async () => {
    const none = await refusal('gemini-2.5-flash', userText('Hi'), { headers: { 'content-type': 'application/json' } });
    expect(none.status).toBe(403);
    expect(none.body.error).toMatchObject({ code: 403, status: 'PERMISSION_DENIED', message: expect.stringContaining("Method doesn't allow unregistered callers") });

    const blank = await refusal('gemini-2.5-flash', userText('Hi'), { headers: { 'content-type': 'application/json', 'x-goog-api-key': ' ' } });
    expect(blank).toEqual({
      status: 400,
      body: {
        error: {
          code: 400,
          message: 'API key not valid. Please pass a valid API key.',
          status: 'INVALID_ARGUMENT',
          details: [
            expect.objectContaining({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }),
            expect.objectContaining({ '@type': 'type.googleapis.com/google.rpc.LocalizedMessage' }),
          ],
        },
      },
    });
  });

  it('takes the key from the key query parameter too', async () => {
    const response = await postGemini(simulator.current, 'gemini-2.5-flash', 'generateContent', userText('Hi'), { headers: { 'content-type': 'application/json' }, query: 'key=abc' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=UTF-8');
  });
});

describe('request validation', () => {
  it.each([
    ['an unknown request field', { ...userText('Hi'), messages: [] }, 'Invalid JSON payload received. Unknown name "messages": Cannot find field.'],
    ['an OpenAI name in generationConfig', userText('Hi', { generationConfig: { max_tokens: 5 } }), `Invalid JSON payload received. Unknown name "max_tokens" at 'generation_config': Cannot find field.`],
    ['an unknown thinkingConfig field', userText('Hi', { generationConfig: { thinkingConfig: { budget: 5 } } }), `Invalid JSON payload received. Unknown name "budget" at 'generation_config.thinking_config': Cannot find field.`],
    ['an OpenAI role', { contents: [{ role: 'assistant', parts: [{ text: 'Hi' }] }] }, 'Please use a valid role: user, model.'],
    ['no contents', {}, '* GenerateContentRequest.contents: contents is not specified\n'],
    ['a content without parts', { contents: [{ role: 'user', parts: [] }] }, '* GenerateContentRequest.contents[0].parts: contents.parts must not be empty.\n'],
    [
      'function results that do not match the calls',
      {
        contents: [
          { role: 'user', parts: [{ text: 'Hi' }] },
          { role: 'model', parts: [{ functionCall: { name: 'a', args: {} } }, { functionCall: { name: 'b', args: {} } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'a', response: {} } }] },
        ],
        generationConfig: { thinkingConfig: { thinkingBudget: 0 } },
      },
      'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
    ],
  ])('refuses %s with the real message', async (_case, body, message) => {
    const { status, body: error } = await refusal('gemini-2.5-flash', body);
    expect(status).toBe(400);
    expect(error.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', message });
  });

  it('names the field of an unknown name in a BadRequest detail', async () => {
    const { body } = await refusal('gemini-2.5-flash', userText('Hi', { generationConfig: { stop: ['x'] } }));
    expect(body.error.details).toEqual([{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'generation_config', description: body.error.message }] }]);
  });

  it('refuses a body that is not JSON, and an unknown model with 404', async () => {
    expect((await refusal('gemini-2.5-flash', '{"contents":')).body.error.message).toContain('Invalid JSON payload received.');
    const missing = await refusal('unknown-model', userText('Hi'));
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ status: 'NOT_FOUND', message: expect.stringContaining('models/unknown-model is not found for API version v1beta') });
  });
});

describe('thinking budgets, as Gemini 2.5 takes them', () => {
  const budget = (thinkingBudget: number) => userText('Hi', { generationConfig: { thinkingConfig: { thinkingBudget } } });

  it('refuses turning thinking off on 2.5 Pro, and budgets outside each model range', async () => {
    expect((await refusal('gemini-2.5-pro', budget(0))).body.error.message).toBe('Budget 0 is invalid. This model only works in thinking mode.');
    expect((await refusal('gemini-2.5-pro', budget(127))).body.error.message).toBe('The thinking budget (127) is invalid.');
    expect((await refusal('gemini-2.5-pro', budget(32_769))).body.error.message).toBe('The thinking budget (32769) is invalid.');
    expect((await refusal('gemini-2.5-flash', budget(24_577))).body.error.message).toBe('The thinking budget (24577) is invalid.');
    expect((await refusal('gemini-2.5-flash-lite', budget(100))).body.error.message).toBe('The thinking budget (100) is invalid.');
  });

  it('accepts each model own range and the dynamic -1', async () => {
    for (const [model, value] of [['gemini-2.5-pro', 128], ['gemini-2.5-pro', 32_768], ['gemini-2.5-pro', -1], ['gemini-2.5-flash', 0], ['gemini-2.5-flash', 24_576]] as const) {
      await expect(generate(simulator.current, model, budget(value))).resolves.toBeDefined();
    }
  });

  it('thinks by default on 2.5 Flash and Pro, not on Flash-Lite, and not with budget 0', async () => {
    expect((await generate(simulator.current, 'gemini-2.5-flash', userText('Hi'))).usageMetadata.thoughtsTokenCount).toBeGreaterThan(0);
    expect((await generate(simulator.current, 'gemini-2.5-pro', userText('Hi'))).usageMetadata.thoughtsTokenCount).toBeGreaterThan(0);
    expect((await generate(simulator.current, 'gemini-2.5-flash-lite', userText('Hi'))).usageMetadata.thoughtsTokenCount).toBeUndefined();
    expect((await generate(simulator.current, 'gemini-2.5-flash', budget(0))).usageMetadata.thoughtsTokenCount).toBeUndefined();
  });

  it('scales the thinking with the budget', async () => {
    expect((await generate(simulator.current, 'gemini-2.5-flash', budget(1024))).usageMetadata.thoughtsTokenCount).toBe(768);
    expect((await generate(simulator.current, 'gemini-2.5-flash', budget(4096))).usageMetadata.thoughtsTokenCount).toBe(3072);
  });

  it('returns thought summaries only with includeThoughts, first, marked thought', async () => {
    const plain = await generate(simulator.current, 'gemini-2.5-flash', userText('Explain'));
    expect(plain.candidates[0]!.content.parts!.some((part) => part.thought)).toBe(false);
    const withThoughts = await generate(simulator.current, 'gemini-2.5-flash', userText('Explain', { generationConfig: { thinkingConfig: { includeThoughts: true } } }));
    const [summary, answer] = withThoughts.candidates[0]!.content.parts!;
    expect(summary).toEqual({ text: expect.stringMatching(/^\*\*.+\*\*\n\n/), thought: true });
    expect(answer).toEqual({ text: answerText(plain) });
  });

  it('spends maxOutputTokens on thinking first: a small limit leaves a content without parts and MAX_TOKENS', async () => {
    const body = await generate(simulator.current, 'gemini-2.5-flash', userText('Hi', { generationConfig: { maxOutputTokens: 50 } }));
    expect(body.candidates[0]).toEqual({ content: { role: 'model' }, finishReason: 'MAX_TOKENS', index: 0 });
    expect(body.usageMetadata.thoughtsTokenCount).toBe(50);
    expect(body.usageMetadata.candidatesTokenCount).toBeUndefined();
  });
});

describe('usageMetadata', () => {
  it('keeps Gemini semantics: prompt includes cache, candidates exclude thoughts, total is the sum', async () => {
    const { usageMetadata: usage } = await generate(simulator.current, 'gemini-2.5-flash', userText('Describe a gateway'));
    expect(usage.totalTokenCount).toBe(usage.promptTokenCount + usage.candidatesTokenCount! + usage.thoughtsTokenCount!);
    expect(usage.promptTokensDetails).toEqual([{ modality: 'TEXT', tokenCount: usage.promptTokenCount }]);
    expect(usage.cachedContentTokenCount).toBeUndefined();
  });

  it('counts images and reports part of a long prompt as cached, from each model implicit-caching minimum', async () => {
    const long = 'cache me '.repeat(1000); // about 2250 tokens
    const flash = (await generate(simulator.current, 'gemini-2.5-flash', { contents: [{ role: 'user', parts: [{ text: long }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] }] })).usageMetadata;
    expect(flash.promptTokensDetails).toEqual([{ modality: 'TEXT', tokenCount: 2250 }, { modality: 'IMAGE', tokenCount: 258 }]);
    expect(flash.promptTokenCount).toBe(2508);
    expect(flash.cachedContentTokenCount).toBe(1024);
    expect(flash.cacheTokensDetails).toEqual([{ modality: 'TEXT', tokenCount: 1024 }]);
    expect(flash.totalTokenCount).toBe(flash.promptTokenCount + flash.candidatesTokenCount! + flash.thoughtsTokenCount!);
    const pro = (await generate(simulator.current, 'gemini-2.5-pro', userText(long))).usageMetadata;
    expect(pro.cachedContentTokenCount).toBeUndefined();
  });

  it('is deterministic: the same request gets the same answer and usage', async () => {
    const [a, b] = await Promise.all([generate(simulator.current, 'gemini-2.5-flash', userText('Same')), generate(simulator.current, 'gemini-2.5-flash', userText('Same'))]);
    expect(a.candidates).toEqual(b.candidates);
    expect(a.usageMetadata).toEqual(b.usageMetadata);
    expect(a.responseId).not.toBe(b.responseId);
    expect(a.modelVersion).toBe('gemini-2.5-flash');
  });
});

describe('function calls and thought signatures', () => {
  it('calls a declared function with arguments that fit its schema, the first call signed', async () => {
    const body = await generate(simulator.current, 'gemini-2.5-flash', userText('Weather in Paris? [sim tool_calls=2]', { tools: [weatherTool] }));
    const parts = body.candidates[0]!.content.parts!;
    expect(parts).toEqual([
      { functionCall: { name: 'get_weather', args: { city: expect.any(String) } }, thoughtSignature: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/) },
      { functionCall: { name: 'get_time', args: { zone: expect.stringMatching(/^(UTC|CET)$/) } } },
    ]);
    expect(body.candidates[0]!.finishReason).toBe('STOP');
  });

  it('signs nothing when not thinking, answers in text with mode NONE, and honours allowedFunctionNames', async () => {
    const unsigned = await generate(simulator.current, 'gemini-2.5-flash', userText('Weather?', { tools: [weatherTool], generationConfig: { thinkingConfig: { thinkingBudget: 0 } } }));
    expect(unsigned.candidates[0]!.content.parts![0]!.thoughtSignature).toBeUndefined();
    const none = await generate(simulator.current, 'gemini-2.5-flash', userText('Weather?', { tools: [weatherTool], toolConfig: { functionCallingConfig: { mode: 'NONE' } } }));
    expect(answerText(none)).not.toBe('');
    const allowed = await generate(simulator.current, 'gemini-2.5-flash', userText('Weather?', { tools: [weatherTool], toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_time'] } } }));
    expect(allowed.candidates[0]!.content.parts![0]!.functionCall!.name).toBe('get_time');
  });

  async function firstTurn(): Promise<{ role: 'model'; parts: object[] }> {
    const body = await generate(simulator.current, 'gemini-2.5-pro', userText('Weather in Paris?', { tools: [weatherTool] }));
    return { role: 'model', parts: body.candidates[0]!.content.parts! };
  }

  const secondTurn = (modelTurn: object, extra: object = {}) => ({
    contents: [
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      modelTurn,
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temperature_c: 21 } } }] },
    ],
    tools: [weatherTool],
    ...extra,
  });

  it('answers the function result when the signature comes back unchanged', async () => {
    const modelTurn = await firstTurn();
    const body = await generate(simulator.current, 'gemini-2.5-pro', secondTurn(modelTurn));
    expect(answerText(body)).toContain('The tool returned: {"temperature_c":21}');
  });

  it('refuses a function call of the current turn without its signature, as Gemini does', async () => {
    const { parts } = await firstTurn();
    const { thoughtSignature: _dropped, ...unsigned } = parts[0] as { thoughtSignature: string };
    const { status, body } = await refusal('gemini-2.5-pro', secondTurn({ role: 'model', parts: [unsigned] }));
    expect(status).toBe(400);
    expect(body.error).toEqual({
      code: 400,
      status: 'INVALID_ARGUMENT',
      message:
        'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. ' +
        'Additional data, function call `default_api:get_weather` , position 2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.',
    });
  });

  it('refuses a signature that does not belong to the call', async () => {
    const { parts } = await firstTurn();
    const call = parts[0] as { functionCall: { name: string; args: object }; thoughtSignature: string };
    const altered = { ...call, functionCall: { ...call.functionCall, args: { city: 'Somewhere else' } } };
    const { status, body } = await refusal('gemini-2.5-pro', secondTurn({ role: 'model', parts: [altered] }));
    expect(status).toBe(400);
    expect(body.error.message).toBe('Corrupted thought signature.');
  });

  it('checks only the current turn, and only when thinking', async () => {
    const unsigned = { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] };
    const earlierTurn = secondTurn(unsigned);
    (earlierTurn.contents as object[]).push({ role: 'model', parts: [{ text: 'It is 21 degrees.' }] }, { role: 'user', parts: [{ text: 'Thanks!' }] });
    await expect(generate(simulator.current, 'gemini-2.5-pro', earlierTurn)).resolves.toBeDefined();
    await expect(generate(simulator.current, 'gemini-2.5-flash', secondTurn(unsigned, { generationConfig: { thinkingConfig: { thinkingBudget: 0 } } }))).resolves.toBeDefined();
  });
});

describe('structured output and candidates', () => {
  it('fills in responseJsonSchema, or the OpenAPI responseSchema', async () => {
    const jsonSchema = { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0, maximum: 120 } }, required: ['name', 'age'] };
    const json = await generate(simulator.current, 'gemini-2.5-flash', userText('Person', { generationConfig: { responseMimeType: 'application/json', responseJsonSchema: jsonSchema } }));
    expect(JSON.parse(answerText(json))).toEqual({ name: expect.any(String), age: expect.any(Number) });
    const openApi = { type: 'OBJECT', properties: { ok: { type: 'BOOLEAN' } }, required: ['ok'] };
    const legacy = await generate(simulator.current, 'gemini-2.5-flash', userText('Check', { generationConfig: { responseMimeType: 'application/json', responseSchema: openApi } }));
    expect(JSON.parse(answerText(legacy))).toEqual({ ok: expect.any(Boolean) });
  });

  it('gives candidateCount candidates, indexed, billed together', async () => {
    const body = await generate(simulator.current, 'gemini-2.5-flash', userText('Two ideas', { generationConfig: { candidateCount: 2, thinkingConfig: { thinkingBudget: 0 } } }));
    expect(body.candidates.map((candidate) => candidate.index)).toEqual([0, 1]);
    expect(body.candidates[0]!.content).not.toEqual(body.candidates[1]!.content);
    expect(body.usageMetadata.totalTokenCount).toBe(body.usageMetadata.promptTokenCount + body.usageMetadata.candidatesTokenCount!);
  });
});
