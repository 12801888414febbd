import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mapUpstreamError } from '../../model-call/to-gateway-error';
import type { ChatCall, ChatStreamEvent } from '../chat-adapter';
import type { ChatCompletionChunk, ChatToolCallDelta } from '../chat-types';
import { UpstreamError } from '../upstream-error';
import { geminiChatAdapter } from './gemini-chat';
import { readGeminiAnswer, toChatCompletion } from './gemini-response';
import { GeminiStreamState } from './gemini-stream';
import { parseArgumentPath } from './parse-argument-path';

/**
 * Function call arguments streamed in pieces (Gemini 3 on Vertex AI with
 * `streamFunctionCallArguments`), in the shape of a recorded stream: each
 * chunk one whole GenerateContentResponse with running usage, as the real
 * endpoint sends them. A small local server plays them to the adapter, so
 * the whole streaming path runs: SSE reading, assembly, finish, usage.
 */
const RESPONSE = { modelVersion: 'gemini-3-pro-preview', responseId: 'pArGs3xAmPlE' };
const usage = (candidates: number) => ({ promptTokenCount: 41, ...(candidates ? { candidatesTokenCount: candidates } : {}), totalTokenCount: 41 + candidates + 120, thoughtsTokenCount: 120 });
const chunk = (parts: object[], candidates = 0, finishReason?: string) => ({
  candidates: [{ content: { parts, role: 'model' }, ...(finishReason ? { finishReason } : {}), index: 0 }],
  usageMetadata: usage(candidates),
  ...RESPONSE,
});
const piece = (partialArgs: object[], willContinue = true) => ({ functionCall: { partialArgs, ...(willContinue ? { willContinue } : {}) } });

/** Two calls: one with a string in three pieces, a number, a bool, null, a nested object and an array; then one with no arguments. */
const STREAMED_ARGUMENTS = [
  chunk([{ functionCall: { name: 'getWeather', willContinue: true }, thoughtSignature: 'c2lnbmVkLWZpcnN0LWNhbGw=' }]),
  chunk([piece([{ jsonPath: '$.location', stringValue: 'Bos', willContinue: true }])], 2),
  chunk([piece([{ jsonPath: '$.location', stringValue: 'ton, ', willContinue: true }])], 3),
  chunk([piece([{ jsonPath: '$.location', stringValue: 'MA' }, { jsonPath: '$.days', numberValue: 3 }])], 5),
  chunk([piece([{ jsonPath: '$.units.metric', boolValue: true }, { jsonPath: '$.units.label', nullValue: 'NULL_VALUE' }])], 7),
  chunk([piece([{ jsonPath: '$.hours[0]', numberValue: 9 }, { jsonPath: '$.hours[1]', numberValue: 17.5 }, { jsonPath: "$['time zone']", stringValue: 'EST' }])], 9),
  chunk([{ functionCall: {} }], 9),
  chunk([{ functionCall: { name: 'getTime', willContinue: true } }], 10),
  chunk([{ functionCall: { willContinue: false } }], 11),
  chunk([{ text: '' }], 11, 'STOP'),
];

let server: Server;
let baseUrl: string;
let nextAnswer: object[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(nextAnswer.map((json) => `data: ${JSON.stringify(json)}\r\n\r\n`).join(''));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1beta`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

function call(): ChatCall {
  return {
    provider: { name: 'vertex', type: 'gemini', baseUrl, apiKey: 'k', timeoutMs: 5000, headers: {}, simulated: false },
    upstreamModel: 'gemini-3-pro-preview',
    family: 'gemini',
    request: { model: 'client-name', messages: [{ role: 'user', content: 'Weather in Boston?' }], stream: true },
    signal: new AbortController().signal,
  };
}

/** What the adapter streams for these chunks: its events, or the error it ended with after them. */
async function play(chunks: object[]): Promise<{ events: ChatStreamEvent[]; error?: unknown }> {
  nextAnswer = chunks;
  const events: ChatStreamEvent[] = [];
  try {
    for await (const event of geminiChatAdapter.stream(call())) events.push(event);
    return { events };
  } catch (error) {
    return { events, error };
  }
}

const chunksOf = (events: ChatStreamEvent[]): ChatCompletionChunk[] => events.flatMap((event) => (event.type === 'chunk' ? [event.chunk] : []));
const toolCallDeltas = (chunks: ChatCompletionChunk[]): ChatToolCallDelta[] => chunks.flatMap((c) => c.choices[0]!.delta.tool_calls ?? []);

/** The tool calls as a client assembles them: by index, the first delta's id and name, the arguments concatenated. */
function assemble(deltas: ChatToolCallDelta[]): { id: string; name: string; arguments: string }[] {
  const calls: { id: string; name: string; arguments: string }[] = [];
  for (const delta of deltas) {
    const call = (calls[delta.index] ??= { id: delta.id!, name: delta.function!.name!, arguments: '' });
    call.arguments += delta.function?.arguments ?? '';
  }
  return calls;
}

describe('function call arguments streamed in pieces', () => {
  it('assembles each started call into one tool call whose argument deltas join into the JSON of the whole arguments', async () => {
    const { events, error } = await play(STREAMED_ARGUMENTS);
    expect(error).toBeUndefined();
    const chunks = chunksOf(events);
    const calls = assemble(toolCallDeltas(chunks));
    expect(calls.map((c) => c.name)).toEqual(['getWeather', 'getTime']);
    expect(JSON.parse(calls[0]!.arguments)).toEqual({ location: 'Boston, MA', days: 3, units: { metric: true, label: null }, hours: [9, 17.5], 'time zone': 'EST' });
    expect(JSON.parse(calls[1]!.arguments)).toEqual({});
    expect(calls[0]!.id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(calls[1]!.id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(calls[0]!.id).not.toBe(calls[1]!.id);
    expect(chunks.at(-1)!.choices[0]).toEqual({ index: 0, delta: {}, finish_reason: 'tool_calls' });
  });

  it('opens a call with index, id, type, name and empty arguments, its signature tied to it, and sends the arguments once the call ends', async () => {
    const chunks = chunksOf((await play(STREAMED_ARGUMENTS)).events);
    const deltas = chunks.map((c) => c.choices[0]!.delta);
    const id = deltas[1]!.tool_calls![0]!.id;
    expect(deltas).toEqual([
      { role: 'assistant', content: '' },
      {
        tool_calls: [{ index: 0, id, type: 'function', function: { name: 'getWeather', arguments: '' } }],
        reasoning_details: [{ type: 'thought_signature', signature: 'c2lnbmVkLWZpcnN0LWNhbGw=', tool_call_id: id }],
      },
      { tool_calls: [{ index: 0, function: { arguments: '{"location":"Boston, MA","days":3,"units":{"metric":true,"label":null},"hours":[9,17.5],"time zone":"EST"}' } }] },
      { tool_calls: [{ index: 1, id: expect.any(String), type: 'function', function: { name: 'getTime', arguments: '' } }] },
      { tool_calls: [{ index: 1, function: { arguments: '{}' } }] },
      {},
    ]);
  });

  it('ends with the usage of the last chunk, the thinking billed as output', async () => {
    const { events } = await play(STREAMED_ARGUMENTS);
    expect(events.at(-1)).toEqual({
      type: 'usage',
      usage: { inputTokens: 41, outputTokens: 11 + 120, reasoningTokens: 120, cacheReadTokens: 0, cacheWriteTokens: { ttl5m: 0, ttl1h: 0 }, reportsCache: true, family: 'gemini', raw: usage(11) },
    });
  });

  it('keeps a whole call in a stream as one delta, as before', async () => {
    const { events } = await play([chunk([{ functionCall: { name: 'getTime', args: { zone: 'UTC' } } }], 4, 'STOP')]);
    const chunks = chunksOf(events);
    expect(toolCallDeltas(chunks)).toEqual([{ index: 0, id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'getTime', arguments: '{"zone":"UTC"}' } }]);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('ends a call on a last piece of arguments that does not say it will continue, and takes a start that also ends', async () => {
    const { events, error } = await play([
      chunk([{ functionCall: { name: 'a', willContinue: true } }]),
      chunk([piece([{ jsonPath: '$.q', stringValue: 'x' }], false)]),
      chunk([{ functionCall: { name: 'b', id: 'fc-7', partialArgs: [{ jsonPath: '$.n', numberValue: 0 }] } }]),
      chunk([{ text: '' }], 3, 'STOP'),
    ]);
    expect(error).toBeUndefined();
    const calls = assemble(toolCallDeltas(chunksOf(events)));
    expect(calls).toEqual([
      { id: expect.any(String), name: 'a', arguments: '{"q":"x"}' },
      { id: 'fc-7', name: 'b', arguments: '{"n":0}' },
    ]);
  });
});

describe('stream chunks the adapter cannot read', () => {
  /** The adapter's error, checked to be a malformed-answer 502, and the message a client would see. */
  async function failure(chunks: object[]): Promise<{ error: UpstreamError; clientMessage: string; chunksBefore: number }> {
    const { events, error } = await play(chunks);
    expect(error).toBeInstanceOf(UpstreamError);
    const upstream = error as UpstreamError;
    expect(upstream.details).toEqual({ status: 502, retryable: true, cause: 'malformed_answer' });
    const gatewayError = mapUpstreamError(upstream);
    expect({ status: gatewayError.status, code: gatewayError.code }).toEqual({ status: 502, code: 'upstream_error' });
    return { error: upstream, clientMessage: gatewayError.message, chunksBefore: chunksOf(events).length };
  }

  it('fails on a continuation piece with no call open, naming the field, and tells the client which provider and field', async () => {
    const { error, clientMessage } = await failure([chunk([{ text: 'Let me check.' }]), chunk([piece([{ jsonPath: '$.location', stringValue: 'Bos' }])])]);
    expect(error.message).toBe('Gemini sent a stream chunk the gateway cannot read: candidates.0.content.parts.0.functionCall: a piece of a function call with no call open');
    expect(clientMessage).toBe(
      'Gemini sent a stream chunk the gateway cannot read: candidates.0.content.parts.0.functionCall: a piece of a function call with no call open. Retry the request; if it persists, report the request_id.',
    );
  });

  it('fails on a part of a shape it does not know, after the chunks it could read', async () => {
    const { error, chunksBefore } = await failure([
      chunk([{ functionCall: { name: 'getWeather', willContinue: true } }]),
      chunk([{ text: 'ok' }, { functionCall: { partialArgs: 5 } }]),
    ]);
    expect(error.message).toBe('Gemini sent a stream chunk the gateway cannot read: candidates.0.content.parts.1.functionCall.partialArgs: Invalid input: expected array, received number');
    expect(chunksBefore).toBe(2);
  });

  it('fails on a stream that finishes while a call is still open', async () => {
    const { error } = await failure([chunk([{ functionCall: { name: 'getWeather', willContinue: true } }]), chunk([{ text: '' }], 1, 'STOP')]);
    expect(error.message).toContain('candidates.0.finishReason: the candidate finished with a function call still open');
  });

  it.each<[string, object, string]>([
    ['a path that is not a singular JSON Path', piece([{ jsonPath: '$..city', stringValue: 'x' }]), 'functionCall.partialArgs.0.jsonPath: not a JSON Path'],
    ['a wildcard path', piece([{ jsonPath: '$.items[*]', numberValue: 1 }]), 'functionCall.partialArgs.0.jsonPath: not a JSON Path'],
    ['the bare root', piece([{ jsonPath: '$', numberValue: 1 }]), 'functionCall.partialArgs.0.jsonPath: not a JSON Path'],
    ['a second number for one path', piece([{ jsonPath: '$.n', numberValue: 1 }, { jsonPath: '$.n', numberValue: 2 }]), 'functionCall.partialArgs.1.jsonPath: a second value for an argument that already has one'],
    ['a string piece after a number', piece([{ jsonPath: '$.n', numberValue: 1 }, { jsonPath: '$.n', stringValue: 'x' }]), 'functionCall.partialArgs.1.jsonPath: a second value'],
    ['an array index past the end', piece([{ jsonPath: '$.items[1]', numberValue: 1 }]), 'functionCall.partialArgs.0.jsonPath: an array index past the end of the array'],
    ['an index used on an object', piece([{ jsonPath: '$.a.b', numberValue: 1 }, { jsonPath: '$.a[0]', numberValue: 2 }]), 'functionCall.partialArgs.1.jsonPath: an array index used on an object'],
    ['a path through a scalar', piece([{ jsonPath: '$.a', numberValue: 1 }, { jsonPath: '$.a.b', numberValue: 2 }]), 'functionCall.partialArgs.1.jsonPath: the path goes through a value'],
    ['a piece with two values', piece([{ jsonPath: '$.a', numberValue: 1, boolValue: true }]), 'functionCall.partialArgs.0: a piece with more than one value'],
    ['a piece with no value for a new argument', piece([{ jsonPath: '$.a' }]), 'functionCall.partialArgs.0: a piece with no value for an argument that has none yet'],
    ['a piece without its path', piece([{ stringValue: 'x' }]), 'functionCall.partialArgs.0.jsonPath: Invalid input: expected string, received undefined'],
    ['a number sent as text', piece([{ jsonPath: '$.n', numberValue: 'NaN' }]), 'functionCall.partialArgs.0.numberValue: Invalid input: expected number, received string'],
    ['arguments without a name', { functionCall: { args: { a: 1 } } }, 'functionCall.args: arguments without a function name'],
    ['whole arguments beside pieces', { functionCall: { name: 'f', args: { a: 1 }, partialArgs: [] } }, 'functionCall.args: whole arguments beside streamed pieces'],
    ['whole arguments on a call that says it will continue', { functionCall: { name: 'f', args: { a: 1 }, willContinue: true } }, 'functionCall.willContinue: a whole call that says it will continue'],
    ['a new call while one is open', { functionCall: { name: 'other', willContinue: true } }, 'functionCall: a new function call before the open one ended'],
    ['a whole call while one is open', { functionCall: { name: 'other', args: {} } }, 'functionCall: a new function call before the open one ended'],
  ])('fails on %s', async (_, part, field) => {
    const { error } = await failure([chunk([{ functionCall: { name: 'f', willContinue: true } }]), chunk([part])]);
    expect(error.message).toContain(`Gemini sent a stream chunk the gateway cannot read: candidates.0.content.parts.0.${field}`);
  });

  it('accepts a piece with no value for an argument that has one: it only marks its end', async () => {
    const { events, error } = await play([
      chunk([{ functionCall: { name: 'f', willContinue: true } }]),
      chunk([piece([{ jsonPath: '$.city', stringValue: 'Par', willContinue: true }])]),
      chunk([piece([{ jsonPath: '$.city', stringValue: 'is' }, { jsonPath: '$.city' }], false)]),
      chunk([{ text: '' }], 2, 'STOP'),
    ]);
    expect(error).toBeUndefined();
    expect(JSON.parse(assemble(toolCallDeltas(chunksOf(events)))[0]!.arguments)).toEqual({ city: 'Paris' });
  });

  it('keeps an argument named __proto__ as a plain name', async () => {
    const { events } = await play([
      chunk([{ functionCall: { name: 'f', partialArgs: [{ jsonPath: '$.__proto__.polluted', boolValue: true }] } }]),
      chunk([{ text: '' }], 2, 'STOP'),
    ]);
    expect(assemble(toolCallDeltas(chunksOf(events)))[0]!.arguments).toBe('{"__proto__":{"polluted":true}}');
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('refuses pieces of arguments in a whole answer, which only a stream can assemble', () => {
    const wire = readGeminiAnswer({ candidates: [{ content: { parts: [{ text: 'x' }, { functionCall: { name: 'f', willContinue: true } }] }, finishReason: 'STOP' }] });
    expect(() => toChatCompletion(wire, 'm')).toThrow(
      'Gemini sent an answer the gateway cannot read: candidates.0.content.parts.1.functionCall: a function call in pieces, which only a stream can assemble',
    );
  });

  it('keeps the candidate position in the field when several candidates stream', () => {
    const state = new GeminiStreamState('m');
    state.toChunks(readGeminiAnswer({ candidates: [{ content: { parts: [{ text: 'a' }] }, index: 0 }, { content: { parts: [{ text: 'b' }] }, index: 1 }] }, 'stream chunk'));
    expect(() => state.toChunks(readGeminiAnswer({ candidates: [{ content: { parts: [{ text: 'b' }, piece([])] }, index: 1 }] }, 'stream chunk'))).toThrow(
      'candidates.0.content.parts.1.functionCall: a piece of a function call with no call open',
    );
  });
});

describe('parseArgumentPath', () => {
  it.each<[string, (string | number)[] | undefined]>([
    ['$.location', ['location']],
    ['$.a.b', ['a', 'b']],
    ['$.items[0].name', ['items', 0, 'name']],
    ['$.matrix[2][10]', ['matrix', 2, 10]],
    ["$['odd key'].x", ['odd key', 'x']],
    ['$["quote \\" inside"]', ['quote " inside']],
    ["$['it\\'s']", ["it's"]],
    ['$.naïve', ['naïve']],
    ['$', undefined],
    ['location', undefined],
    ['$.', undefined],
    ['$..a', undefined],
    ['$.a[*]', undefined],
    ['$.a[-1]', undefined],
    ['$.a[01]', undefined],
    ['$.a[0:2]', undefined],
    ['$[?@.a]', undefined],
    ["$['unterminated]", undefined],
  ])('%s', (path, steps) => {
    expect(parseArgumentPath(path)).toEqual(steps);
  });
});
