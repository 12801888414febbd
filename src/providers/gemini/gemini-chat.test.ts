import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startSimulator, type SimulatorHandle } from '@model-gateway/simulator';
import type { ChatCall, ChatStreamEvent } from '../chat-adapter';
import type { ChatCompletionChunk, ChatDelta } from '../chat-types';
import { UnsupportedParameterError } from '../unsupported-parameter';
import { UpstreamError } from '../upstream-error';
import { geminiChatAdapter } from './gemini-chat';

const FIXTURES = path.join(__dirname, '../../../test/fixtures/recorded/gemini');
const recordedBody = (name: string) => JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8'));
const recordedChunks = (name: string) =>
  readFileSync(path.join(FIXTURES, `${name}.chunks.txt`), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
/** The signature on the first part of the n-th recorded chunk: too long to write out here. */
const chunkSignature = (name: string, n: number): string => recordedChunks(name)[n].candidates[0].content.parts[0].thoughtSignature;

let sim: SimulatorHandle;
beforeAll(async () => {
  sim = await startSimulator({ fixturesDir: path.dirname(FIXTURES) });
});
afterAll(() => sim.close());

function call(request: Partial<ChatCall['request']> & { content?: string }, upstreamModel = 'gemini-2.5-flash'): ChatCall {
  const { content = 'Hi', ...rest } = request;
  return {
    provider: { name: 'gemini', type: 'gemini', baseUrl: `${sim.url}/v1beta`, apiKey: 'k', timeoutMs: 5000, headers: {}, simulated: true },
    upstreamModel,
    family: 'gemini',
    request: { model: 'client-name', messages: [{ role: 'user', content }], ...rest },
    signal: new AbortController().signal,
  };
}

async function collect(c: ChatCall): Promise<ChatStreamEvent[]> {
  const events: ChatStreamEvent[] = [];
  for await (const event of geminiChatAdapter.stream(c)) events.push(event);
  return events;
}

function chunksOf(events: ChatStreamEvent[]): ChatCompletionChunk[] {
  return events.flatMap((event) => (event.type === 'chunk' ? [event.chunk] : []));
}

function usageEvents(events: ChatStreamEvent[]) {
  return events.flatMap((event) => (event.type === 'usage' && !event.partial ? [event.usage] : []));
}

const usage = (raw: object, inputTokens: number, outputTokens: number, reasoningTokens: number) => ({
  inputTokens, outputTokens, reasoningTokens, cacheReadTokens: 0, cacheWriteTokens: { ttl5m: 0, ttl1h: 0 }, reportsCache: true, family: 'gemini', raw,
});

describe('Gemini adapter against recorded whole answers', () => {
  it('reads text.json: text, its thought signature, and usage with thinking billed as output', async () => {
    const recorded = recordedBody('text');
    const { completion, usage: measured } = await geminiChatAdapter.complete(call({ content: 'How many rs? [sim replay=text]' }));
    expect(completion).toEqual({
      id: 'Un6LacrVMcjUxs0PmJfWoQc',
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'gemini-3-pro-preview',
      choices: [
        {
          index: 0,
          finish_reason: 'stop',
          message: {
            role: 'assistant',
            content: "There are **3** r's in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.",
            reasoning_details: [
              { type: 'thought_signature', signature: 'EtoFCtcFAb4+9vtfe4MXRxQjw48U1WKrR/7lYsgFkVi/bepqsSPjY0VU7HEzkeCBIfy1fu5t9aUZ4IZ65aWagqbBrV45fc97olcg' },
            ],
          },
        },
      ],
    });
    expect(measured).toEqual(usage(recorded.usageMetadata, 9, 28 + 244, 244));
  });

  it('reads reasoning.json the same way', async () => {
    const recorded = recordedBody('reasoning');
    const { completion, usage: measured } = await geminiChatAdapter.complete(call({ content: 'x [sim replay=reasoning]' }));
    expect(completion.choices).toEqual([
      {
        index: 0,
        finish_reason: 'stop',
        message: {
          role: 'assistant',
          content: 'There are **3** "r"s in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.',
          reasoning_details: [
            { type: 'thought_signature', signature: 'EvsFCvgFAb4+9vtgYAdOcxMwBr9AOT6XX6Pz5SYAd9gXb/bmH4iLHlJ/3D3xudRmJGM9BBxdQZ1WGuRdZJ2CkdRKCCVVn/cqmSjH' },
          ],
        },
      },
    ]);
    expect(completion).toMatchObject({ id: 'YH6LaZT7ENmPxN8P-r2J8Aw', model: 'gemini-3-pro-preview' });
    expect(measured).toEqual(usage(recorded.usageMetadata, 9, 29 + 282, 282));
  });

  it('reads tool-call.json as a tool call with a generated id, its signature tied to that id, and finish_reason tool_calls', async () => {
    const recorded = recordedBody('tool-call');
    const { completion, usage: measured } = await geminiChatAdapter.complete(call({ content: 'x [sim replay=tool-call]' }));
    const id = completion.choices[0]?.message.tool_calls?.[0]?.id;
    expect(id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(completion.choices).toEqual([
      {
        index: 0,
        finish_reason: 'tool_calls',
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [{ id, type: 'function', function: { name: 'weather', arguments: '{"location":"San Francisco"}' } }],
          reasoning_details: [
            {
              type: 'thought_signature',
              signature: 'EskgCsYgAb4+9vtF7/499YQS2bjZs3xcQI+iAl+ILn29nK1j0Kg6su7QsUUUk3nrAAfnS2w5WiVvlcCqu9fAebJ2cvfaEyBahEt5',
              tool_call_id: id,
            },
          ],
        },
      },
    ]);
    expect(measured).toEqual(usage(recorded.usageMetadata, 29, 15 + 893, 893));
  });
});

describe('Gemini adapter against recorded streams', () => {
  const streamChunk = (id: string, delta: ChatDelta, finishReason: string | null = null) => ({
    id, object: 'chat.completion.chunk', created: expect.any(Number), model: 'gemini-3-pro-preview', choices: [{ index: 0, delta, finish_reason: finishReason }],
  });

  it('streams text.chunks.txt: role, two text deltas, the signature from the empty last part, the finish, then one usage', async () => {
    const recorded = recordedChunks('text');
    const events = await collect(call({ content: 'x [sim replay=text]', stream: true }));
    const id = 'bH6LaZW8Fp_3nsEPqtaSwQ4';
    expect(chunksOf(events)).toEqual([
      streamChunk(id, { role: 'assistant', content: '' }),
      streamChunk(id, { content: 'There are **3**' }),
      streamChunk(id, { content: ' "r"s in strawberry.\n\nst**r**awbe**rr**y' }),
      streamChunk(id, { reasoning_details: [{ type: 'thought_signature', signature: chunkSignature('text', 2) }] }),
      streamChunk(id, {}, 'stop'),
    ]);
    expect(usageEvents(events)).toEqual([usage(recorded[2].usageMetadata, 9, 23 + 185, 185)]);
    expect(events[events.length - 1]?.type).toBe('usage');
  });

  it('streams reasoning.chunks.txt the same way', async () => {
    const recorded = recordedChunks('reasoning');
    const events = await collect(call({ content: 'x [sim replay=reasoning]', stream: true }));
    const id = 'dX6LadKVC7SZ28oPr9yJoQs';
    expect(chunksOf(events)).toEqual([
      streamChunk(id, { role: 'assistant', content: '' }),
      streamChunk(id, { content: 'There are **3** "r"s in' }),
      streamChunk(id, { content: ' strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.' }),
      streamChunk(id, { reasoning_details: [{ type: 'thought_signature', signature: chunkSignature('reasoning', 2) }] }),
      streamChunk(id, {}, 'stop'),
    ]);
    expect(usageEvents(events)).toEqual([usage(recorded[2].usageMetadata, 9, 29 + 256, 256)]);
  });

  it('streams tool-call.chunks.txt: the whole call in one delta with its signature, the empty text part skipped', async () => {
    const recorded = recordedChunks('tool-call');
    const events = await collect(call({ content: 'x [sim replay=tool-call]', stream: true }));
    const chunks = chunksOf(events);
    const callId = chunks[1]?.choices[0]?.delta.tool_calls?.[0]?.id;
    expect(callId).toMatch(/^call_/);
    const id = 'b36LacjwM668nsEP2tbsgQQ';
    expect(chunks).toEqual([
      streamChunk(id, { role: 'assistant', content: '' }),
      streamChunk(id, {
        tool_calls: [{ index: 0, id: callId, type: 'function', function: { name: 'weather', arguments: '{"location":"San Francisco"}' } }],
        reasoning_details: [{ type: 'thought_signature', signature: chunkSignature('tool-call', 0), tool_call_id: callId }],
      }),
      streamChunk(id, {}, 'tool_calls'),
    ]);
    expect(usageEvents(events)).toEqual([usage(recorded[1].usageMetadata, 29, 15 + 45, 45)]);
  });
});

describe('Gemini adapter against the simulated Gemini API', () => {
  const weatherTool = {
    type: 'function' as const,
    function: { name: 'get_weather', description: 'Weather now', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  };

  it('sends the native request: path, key header, thinking config; and reads thought summaries as reasoning_content', async () => {
    const { completion, usage: measured } = await geminiChatAdapter.complete(
      call({ content: 'Explain caching', thinking: { enabled: true, budgetTokens: 2048, includeThoughts: true }, max_tokens: 4000 }),
    );
    const message = completion.choices[0]!.message;
    expect(message.reasoning_content).toMatch(/^\*\*.+\*\*\n\n/);
    expect(typeof message.content).toBe('string');
    expect(measured).toMatchObject({ reasoningTokens: 1536, family: 'gemini' });
    expect(measured!.outputTokens).toBeGreaterThan(1536);

    const log = (await (await fetch(`${sim.url}/_sim/requests?limit=1`)).json()) as { requests: { path: string; headers: Record<string, string>; body: unknown }[] };
    expect(log.requests[0]).toMatchObject({
      path: '/v1beta/models/gemini-2.5-flash:generateContent',
      headers: { 'x-goog-api-key': '[redacted]' },
      body: {
        contents: [{ role: 'user', parts: [{ text: 'Explain caching' }] }],
        generationConfig: { maxOutputTokens: 4000, thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } },
      },
    });
  });

  it('completes a tool round trip when the thought signature comes back, and is refused without it', async () => {
    const first = await geminiChatAdapter.complete(call({ content: 'Weather in Paris?', tools: [weatherTool] }));
    const assistant = first.completion.choices[0]!.message;
    expect(first.completion.choices[0]!.finish_reason).toBe('tool_calls');
    const toolCall = assistant.tool_calls![0]!;
    expect(JSON.parse(toolCall.function.arguments)).toEqual({ city: expect.any(String) });
    expect(assistant.reasoning_details).toEqual([{ type: 'thought_signature', signature: expect.any(String), tool_call_id: toolCall.id }]);

    const history = (reasoningDetails: typeof assistant.reasoning_details): ChatCall['request']['messages'] => [
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: null, tool_calls: [toolCall], ...(reasoningDetails ? { reasoning_details: reasoningDetails } : {}) },
      { role: 'tool', tool_call_id: toolCall.id, content: '{"temperature_c":21}' },
    ];
    const second = await geminiChatAdapter.complete(call({ messages: history(assistant.reasoning_details), tools: [weatherTool] }));
    expect(second.completion.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: expect.stringContaining('The tool returned: {"temperature_c":21}') } });

    const refused = await geminiChatAdapter.complete(call({ messages: history(undefined), tools: [weatherTool] })).catch((e) => e);
    expect(refused).toBeInstanceOf(UpstreamError);
    expect(refused.details).toMatchObject({ status: 400, retryable: false, code: 'INVALID_ARGUMENT' });
    expect(refused.message).toContain('Function call is missing a thought_signature in functionCall parts');
  });

  it('streams a generated answer whose deltas add up to the whole answer for the same request', async () => {
    const request = { content: 'Tell me about gateways', thinking: { enabled: true, includeThoughts: true } };
    const whole = (await geminiChatAdapter.complete(call(request))).completion.choices[0]!.message;
    const events = await collect(call({ ...request, stream: true }));
    const deltas = chunksOf(events).map((chunk) => chunk.choices[0]!.delta);
    expect(deltas.map((d) => d.content ?? '').join('')).toBe(whole.content);
    expect(deltas.map((d) => d.reasoning_content ?? '').join('')).toBe(whole.reasoning_content);
    expect(chunksOf(events).at(-1)!.choices[0]!.finish_reason).toBe('stop');
    expect(usageEvents(events)).toHaveLength(1);
  });

  describe('function call arguments streamed in pieces ([sim stream_args])', () => {
    const tripTool = {
      type: 'function' as const,
      function: {
        name: 'plan_trip',
        parameters: {
          type: 'object',
          properties: {
            city: { type: 'string' },
            days: { type: 'integer' },
            budget: { type: 'number' },
            flexible: { type: 'boolean' },
            window: { type: 'object', properties: { from: { type: 'string', format: 'date' }, to: { type: 'string', format: 'date' } } },
            stops: { type: 'array', items: { type: 'string' }, minItems: 2 },
          },
        },
      },
    };
    const prompt = 'Plan a trip to Lisbon [sim stream_args]';

    it('assembles one tool call whose arguments are the whole answer\'s, with its signature, finish tool_calls and usage', async () => {
      const whole = (await geminiChatAdapter.complete(call({ content: prompt, tools: [tripTool] }))).completion.choices[0]!.message;
      const wholeArgs = JSON.parse(whole.tool_calls![0]!.function.arguments);
      expect(wholeArgs).toEqual({
        city: expect.any(String), days: expect.any(Number), budget: expect.any(Number), flexible: expect.any(Boolean),
        window: { from: '2026-01-15', to: '2026-01-15' }, stops: [expect.any(String), expect.any(String)],
      });

      const events = await collect(call({ content: prompt, tools: [tripTool], stream: true }));
      const deltas = chunksOf(events).map((chunk) => chunk.choices[0]!.delta);
      const toolDeltas = deltas.flatMap((delta) => delta.tool_calls ?? []);
      expect(toolDeltas.length).toBeGreaterThan(1);
      expect(toolDeltas[0]).toEqual({ index: 0, id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'plan_trip', arguments: '' } });
      expect(toolDeltas.every((delta) => delta.index === 0)).toBe(true);
      const streamedArgs = toolDeltas.map((delta) => delta.function?.arguments ?? '').join('');
      expect(JSON.parse(streamedArgs)).toEqual(wholeArgs);
      expect(deltas.flatMap((delta) => delta.reasoning_details ?? [])).toEqual([
        { type: 'thought_signature', signature: (whole.reasoning_details![0] as { signature: string }).signature, tool_call_id: toolDeltas[0]!.id },
      ]);
      expect(chunksOf(events).at(-1)!.choices[0]!.finish_reason).toBe('tool_calls');
      expect(usageEvents(events)).toHaveLength(1);
      expect(events.at(-1)!.type).toBe('usage');

      // The assembled call, sent back with its signature, is the call the model made: the next turn is accepted.
      const toolCall = { id: toolDeltas[0]!.id!, type: 'function' as const, function: { name: 'plan_trip', arguments: streamedArgs } };
      const next = await geminiChatAdapter.complete(call({
        tools: [tripTool],
        messages: [
          { role: 'user', content: prompt },
          { role: 'assistant', content: null, tool_calls: [toolCall], reasoning_details: deltas.flatMap((delta) => delta.reasoning_details ?? []) },
          { role: 'tool', tool_call_id: toolCall.id, content: '{"booked":true}' },
        ],
      }));
      expect(next.completion.choices[0]!.finish_reason).toBe('stop');
    });

    it('assembles several calls of one turn, a call without arguments included', async () => {
      const clockTool = { type: 'function' as const, function: { name: 'current_time', parameters: { type: 'object', properties: {} } } };
      const events = await collect(call({ content: 'Plan it [sim stream_args tool_calls=2]', tools: [tripTool, clockTool], stream: true }));
      const toolDeltas = chunksOf(events).flatMap((chunk) => chunk.choices[0]!.delta.tool_calls ?? []);
      const byIndex = [0, 1].map((index) => toolDeltas.filter((delta) => delta.index === index));
      expect(byIndex.map((deltas) => deltas[0]!.function!.name)).toEqual(['plan_trip', 'current_time']);
      expect(JSON.parse(byIndex[0]!.map((delta) => delta.function!.arguments).join(''))).toMatchObject({ window: { from: '2026-01-15' } });
      expect(byIndex[1]!.map((delta) => delta.function!.arguments).join('')).toBe('{}');
    });
  });

  it('refuses a parameter Gemini cannot honour before any upstream call', async () => {
    const before = ((await (await fetch(`${sim.url}/_sim/requests`)).json()) as { received: number }).received;
    const err = await geminiChatAdapter.complete(call({ logit_bias: { '50256': -100 } })).catch((e) => e);
    expect(err).toBeInstanceOf(UnsupportedParameterError);
    expect(err.param).toBe('logit_bias');
    const after = ((await (await fetch(`${sim.url}/_sim/requests`)).json()) as { received: number }).received;
    expect(after).toBe(before);
  });
});

describe('Gemini adapter errors', () => {
  it('keeps the RPC status as code and reads the wait from RetryInfo on a 429', async () => {
    const err = await geminiChatAdapter.complete(call({ content: 'x [sim status=429 retry_after=7]' })).catch((e) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err.details).toMatchObject({ status: 429, retryable: true, retryAfterSeconds: 7, code: 'RESOURCE_EXHAUSTED' });
    expect(err.message).toContain('You exceeded your current quota');
  });

  it('marks 500 and 503 retryable and a refused budget not', async () => {
    await expect(geminiChatAdapter.complete(call({ content: 'x [sim status=503]' }))).rejects.toMatchObject({ details: { status: 503, retryable: true, code: 'UNAVAILABLE' } });
    await expect(geminiChatAdapter.complete(call({ content: 'x [sim status=500]' }))).rejects.toMatchObject({ details: { status: 500, retryable: true, code: 'INTERNAL' } });
    const budget = await geminiChatAdapter.complete(call({ thinking: { enabled: false } }, 'gemini-2.5-pro')).catch((e) => e);
    expect(budget.details).toMatchObject({ status: 400, retryable: false, code: 'INVALID_ARGUMENT' });
    expect(budget.message).toBe('Budget 0 is invalid. This model only works in thinking mode.');
  });

  it('fails a stream with its own error status before the first chunk', async () => {
    const err = await collect(call({ content: 'x [sim status=429 retry_after=2]', stream: true })).catch((e) => e);
    expect(err.details).toMatchObject({ status: 429, retryAfterSeconds: 2, code: 'RESOURCE_EXHAUSTED' });
  });

  it('reports an in-stream error payload and a cut-off stream distinctly', async () => {
    const streamError = await collect(call({ content: 'x [sim stream_error=2 words=40 chunk=8]', stream: true })).catch((e) => e);
    expect(streamError.details).toMatchObject({ cause: 'upstream_stream_error', code: 'INTERNAL', retryable: false });
    const cut = await collect(call({ content: 'x [sim cut_after=2 words=40 chunk=8]', stream: true })).catch((e) => e);
    expect(cut.details).toMatchObject({ cause: 'stream_cut', retryable: true });
    const cutReplay = await collect(call({ content: 'x [sim replay=text cut_after=2]', stream: true })).catch((e) => e);
    expect(cutReplay.details.cause).toBe('stream_cut');
  });

  it('stops reading quietly when the consumer leaves mid-stream', async () => {
    const upstream = geminiChatAdapter.stream(call({ content: 'x [sim words=200 chunk=4 pace=5]', stream: true }));
    expect((await upstream.next()).value).toMatchObject({ type: 'chunk' });
    await expect(upstream.return(undefined)).resolves.toEqual({ done: true, value: undefined });
  });

  it('fails a stream with a chunk it cannot read ([sim bad_chunk]) after what it could read, naming the field', async () => {
    const upstream = geminiChatAdapter.stream(call({ content: 'x [sim bad_chunk words=30 chunk=10]', stream: true }));
    const received: ChatStreamEvent[] = [];
    const err = await (async () => {
      for await (const event of upstream) received.push(event);
    })().catch((e) => e);
    expect(received.filter((event) => event.type === 'chunk').length).toBeGreaterThanOrEqual(2);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err.details).toEqual({ status: 502, retryable: true, cause: 'malformed_answer' });
    expect(err.message).toBe('Gemini sent a stream chunk the gateway cannot read: candidates.0.content.parts.0.functionCall.partialArgs: Invalid input: expected array, received number');
  });

  it('reads a refused API key (400 INVALID_ARGUMENT, reason API_KEY_INVALID) as a refused credential, worth another route', async () => {
    const blankKey = call({});
    blankKey.provider = { ...blankKey.provider, apiKey: ' ' };
    for (const attempt of [() => geminiChatAdapter.complete(blankKey), () => collect({ ...blankKey, request: { ...blankKey.request, stream: true } })]) {
      const err = await attempt().catch((e) => e);
      expect(err).toBeInstanceOf(UpstreamError);
      expect(err.details).toMatchObject({ status: 400, retryable: true, code: 'API_KEY_INVALID', cause: 'credential_refused' });
    }
  });

  it('marks a refused connection retryable', async () => {
    const dead = call({});
    dead.provider = { ...dead.provider, baseUrl: 'http://127.0.0.1:9/v1beta' };
    const refused = await geminiChatAdapter.complete(dead).catch((e) => e);
    expect(refused.details).toMatchObject({ status: 0, retryable: true, cause: 'connect' });
  });
});
