import { type GeminiErrorBody, type GeminiPartialArgBody, type GeminiResponseBody, answerText, generate, postGemini, userText } from './gemini-test-kit';
import { eventually, readRecorded, readUntilClosed, requestLog, ssePayloads, useSimulator } from './simulator-test-kit';

const simulator = useSimulator();

const stream = (body: unknown, model = 'gemini-2.5-flash', signal?: AbortSignal) =>
  postGemini(simulator.current, model, 'streamGenerateContent?alt=sse', body, signal ? { signal } : {});

async function streamedChunks(body: unknown, model?: string): Promise<GeminiResponseBody[]> {
  const response = await stream(body, model);
  expect(response.status).toBe(200);
  return ssePayloads(await response.text()).map((payload) => JSON.parse(payload) as GeminiResponseBody);
}

/** Arguments of every kind a piece can carry: strings (one of them in a nested object), numbers, booleans, null, an odd name, and an empty object that cannot be streamed. */
const bookingSchema = {
  type: 'object',
  properties: {
    guest: { type: 'object', properties: { name: { type: 'string', const: 'Ada Lovelace' } } },
    nights: { type: 'integer', minimum: 2, maximum: 9 },
    breakfast: { type: 'boolean' },
    'room type': { const: 'suite' },
    note: { type: 'null' },
    extras: { type: 'object', properties: {} },
  },
};

/** The arguments the pieces build, read the simple way: paths are `$.a.b` or `$["name"]`, strings joined. */
function assembleArguments(args: GeminiPartialArgBody[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const arg of args) {
    const names = arg.jsonPath.startsWith('$[') ? [JSON.parse(arg.jsonPath.slice(2, -1)) as string] : arg.jsonPath.slice(2).split('.');
    const holder = names.slice(0, -1).reduce((object, name) => (object[name] ??= {}) as Record<string, unknown>, root);
    const last = names.at(-1)!;
    const value = arg.stringValue ?? arg.numberValue ?? arg.boolValue ?? null;
    holder[last] = typeof value === 'string' && typeof holder[last] === 'string' ? holder[last] + value : value;
  }
  return root;
}

const textOf = (chunks: GeminiResponseBody[], thought = false) =>
  chunks.flatMap((chunk) => chunk.candidates[0]?.content.parts ?? []).filter((part) => !!part.thought === thought).map((part) => part.text ?? '').join('');

describe('stream format', () => {
  it('sends data-only SSE, every event ending with a blank line, no terminator', async () => {
    const response = await stream(userText('Hello there'));
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const text = await response.text();
    expect(text.endsWith('}\n\n')).toBe(true);
    expect(text).not.toContain('[DONE]');
    expect(text).not.toMatch(/^event:/m);
    for (const payload of ssePayloads(text)) expect(() => JSON.parse(payload)).not.toThrow();
  });

  it('adds up to the whole answer: same text, finish reason on the last chunk only, final usage equal', async () => {
    const body = userText('Tell me about streams', { generationConfig: { thinkingConfig: { includeThoughts: true } } });
    const [chunks, whole] = await Promise.all([streamedChunks(body), generate(simulator.current, 'gemini-2.5-flash', body)]);
    const last = chunks[chunks.length - 1]!;
    expect(textOf(chunks)).toBe(answerText(whole));
    expect(textOf(chunks, true)).toBe(whole.candidates[0]!.content.parts![0]!.text);
    expect(chunks.slice(0, -1).every((chunk) => chunk.candidates[0]!.finishReason === undefined)).toBe(true);
    expect(last.candidates).toEqual([{ content: { parts: [{ text: '' }], role: 'model' }, finishReason: 'STOP', index: 0 }]);
    expect(last.usageMetadata).toEqual(whole.usageMetadata);
    expect(new Set(chunks.map((chunk) => chunk.responseId)).size).toBe(1);
  });

  it('sends thoughts first, and running usage: prompt and thoughts from the start, visible tokens growing', async () => {
    const chunks = await streamedChunks(userText('Count up [sim chunk=8]', { generationConfig: { thinkingConfig: { includeThoughts: true } } }));
    const kinds = chunks.slice(0, -1).map((chunk) => (chunk.candidates[0]!.content.parts![0]!.thought ? 'thought' : 'text'));
    expect(kinds.indexOf('text')).toBeGreaterThan(kinds.lastIndexOf('thought'));
    const thoughts = new Set(chunks.map((chunk) => chunk.usageMetadata.thoughtsTokenCount));
    expect(thoughts.size).toBe(1);
    const visible = chunks.map((chunk) => chunk.usageMetadata.candidatesTokenCount ?? 0);
    expect(visible).toEqual([...visible].sort((a, b) => a - b));
    expect(chunks.every((chunk) => chunk.usageMetadata.totalTokenCount === chunk.usageMetadata.promptTokenCount + (chunk.usageMetadata.candidatesTokenCount ?? 0) + chunk.usageMetadata.thoughtsTokenCount!)).toBe(true);
    expect(chunks.filter((chunk) => !chunk.candidates[0]!.content.parts![0]!.thought).slice(0, -1).every((chunk) => chunk.candidates[0]!.content.parts![0]!.text!.length <= 8)).toBe(true);
  });

  it('sends each function call whole in one chunk, with its signature', async () => {
    const tools = [{ functionDeclarations: [{ name: 'lookup', parametersJsonSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }] }];
    const chunks = await streamedChunks(userText('Look it up', { tools }));
    expect(chunks).toHaveLength(2);
    expect(chunks[0]!.candidates[0]!.content.parts).toEqual([{ functionCall: { name: 'lookup', args: { q: expect.any(String) } }, thoughtSignature: expect.any(String) }]);
    expect(chunks[1]!.candidates[0]!.finishReason).toBe('STOP');
  });

  it('sends each function call in pieces with stream_args, as Gemini 3 streams arguments: start, pieces, end', async () => {
    const tools = [{ functionDeclarations: [{ name: 'book', parametersJsonSchema: bookingSchema }] }];
    const body = userText('Book it [sim stream_args]', { tools });
    const [chunks, whole] = await Promise.all([streamedChunks(body), generate(simulator.current, 'gemini-2.5-flash', body)]);
    const wholeCall = whole.candidates[0]!.content.parts![0]!;
    const parts = chunks.map((chunk) => chunk.candidates[0]!.content.parts![0]!);
    expect(parts[0]).toEqual({ functionCall: { name: 'book', willContinue: true }, thoughtSignature: wholeCall.thoughtSignature });
    expect(parts.at(-2)).toEqual({ functionCall: { willContinue: false } });
    expect(parts.at(-1)).toEqual({ text: '' });
    expect(chunks.at(-1)!.candidates[0]!.finishReason).toBe('STOP');
    expect(chunks.slice(0, -1).every((chunk) => chunk.candidates[0]!.finishReason === undefined)).toBe(true);

    const pieces = parts.slice(1, -2);
    expect(pieces.every((part) => part.functionCall?.name === undefined && part.functionCall?.willContinue === true && part.functionCall.partialArgs?.length === 1)).toBe(true);
    const args = pieces.map((part) => part.functionCall!.partialArgs![0]!);
    const guest = args.filter((arg) => arg.jsonPath === '$.guest.name');
    expect(guest.length).toBeGreaterThan(1);
    expect(guest.slice(0, -1).every((arg) => arg.willContinue === true)).toBe(true);
    expect(guest.at(-1)!.willContinue).toBeUndefined();
    expect(args.filter((arg) => arg.jsonPath === '$.nights')).toEqual([{ jsonPath: '$.nights', numberValue: expect.any(Number) }]);
    expect(args.filter((arg) => arg.jsonPath === '$.breakfast')).toEqual([{ jsonPath: '$.breakfast', boolValue: expect.any(Boolean) }]);
    expect(args.filter((arg) => arg.jsonPath === '$["room type"]')).toEqual([
      { jsonPath: '$["room type"]', stringValue: 'suit', willContinue: true },
      { jsonPath: '$["room type"]', stringValue: 'e' },
    ]);
    expect(args.filter((arg) => arg.jsonPath === '$.note')).toEqual([{ jsonPath: '$.note', nullValue: 'NULL_VALUE' }]);
    expect(args.some((arg) => arg.jsonPath.startsWith('$.extras'))).toBe(false);

    expect(assembleArguments(args)).toEqual(wholeCall.functionCall!.args);
    expect(wholeCall.functionCall!.args).not.toHaveProperty('extras');
    expect(chunks.at(-1)!.usageMetadata).toEqual(whole.usageMetadata);
  });

  it('sends a call without arguments as its start and its end only', async () => {
    const tools = [{ functionDeclarations: [{ name: 'now', parametersJsonSchema: { type: 'object', properties: {} } }] }];
    const chunks = await streamedChunks(userText('What time is it? [sim stream_args]', { tools }), 'gemini-2.0-flash');
    expect(chunks.map((chunk) => chunk.candidates[0]!.content.parts)).toEqual([
      [{ functionCall: { name: 'now', willContinue: true } }],
      [{ functionCall: { willContinue: false } }],
      [{ text: '' }],
    ]);
  });

  it('serves the stream only with alt=sse', async () => {
    const response = await postGemini(simulator.current, 'gemini-2.5-flash', 'streamGenerateContent', userText('Hi'));
    expect(response.status).toBe(400);
    expect(((await response.json()) as GeminiErrorBody).error.status).toBe('INVALID_ARGUMENT');
  });
});

describe('directives', () => {
  it('cut_after=N drops the connection after N chunks, before any finish reason', async () => {
    const response = await stream(userText('Long answer [sim cut_after=2 words=60 chunk=10]'));
    const { text, failed } = await readUntilClosed(response);
    expect(failed).toBe(true);
    const payloads = ssePayloads(text);
    expect(payloads).toHaveLength(2);
    expect(payloads.some((payload) => payload.includes('finishReason'))).toBe(false);
  });

  it('stream_error=N sends Google error envelope as an event after N chunks, then ends cleanly', async () => {
    const { text, failed } = await readUntilClosed(await stream(userText('Long answer [sim stream_error=1 words=60]')));
    expect(failed).toBe(false);
    const payloads = ssePayloads(text);
    expect(payloads).toHaveLength(2);
    expect(JSON.parse(payloads[1]!)).toEqual({ error: { code: 500, message: expect.stringContaining('An internal error has occurred'), status: 'INTERNAL' } });
  });

  it('status=429 retry_after=N answers Google quota error with a RetryInfo detail', async () => {
    const response = await stream(userText('Hi [sim status=429 retry_after=3]'));
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBeNull();
    const { error } = (await response.json()) as GeminiErrorBody;
    expect(error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED', message: expect.stringContaining('You exceeded your current quota') });
    expect(error.details).toEqual([
      expect.objectContaining({ '@type': 'type.googleapis.com/google.rpc.QuotaFailure' }),
      expect.objectContaining({ '@type': 'type.googleapis.com/google.rpc.Help' }),
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '3s' },
    ]);
  });

  it.each([
    [500, 'INTERNAL'],
    [503, 'UNAVAILABLE'],
    [504, 'DEADLINE_EXCEEDED'],
    [403, 'PERMISSION_DENIED'],
  ])('status=%i answers with the %s envelope', async (status, name) => {
    const response = await postGemini(simulator.current, 'gemini-2.5-flash', 'generateContent', userText(`Hi [sim status=${status}]`));
    expect(response.status).toBe(status);
    expect(((await response.json()) as GeminiErrorBody).error).toMatchObject({ code: status, status: name });
  });

  it('code= replaces the RPC status name', async () => {
    const response = await postGemini(simulator.current, 'gemini-2.5-flash', 'generateContent', userText('Hi [sim status=400 code=FAILED_PRECONDITION]'));
    expect(((await response.json()) as GeminiErrorBody).error).toMatchObject({ code: 400, status: 'FAILED_PRECONDITION' });
  });

  it('fail_times=1 fails the first sighting of a prompt and answers the next', async () => {
    const body = userText(`Retry me ${Date.now()} [sim fail_times=1 status=503]`);
    expect((await stream(body)).status).toBe(503);
    expect((await stream(body)).status).toBe(200);
  });

  it('pace=N spaces the events, hang holds the request until the client leaves', async () => {
    const started = Date.now();
    await (await stream(userText('Paced [sim pace=40 words=10 chunk=20]'))).text();
    expect(Date.now() - started).toBeGreaterThanOrEqual(80);

    const before = (await requestLog(simulator.current)).aborted;
    const controller = new AbortController();
    const pending = stream(userText('Wait [sim hang]'), 'gemini-2.5-flash', controller.signal).catch((error: unknown) => error);
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toMatchObject({ name: 'AbortError' });
    await eventually(async () => (await requestLog(simulator.current)).aborted > before);
  });

  it.each([
    ['a generated answer', 'Long answer [sim bad_chunk words=30 chunk=10]'],
    ['a replayed recording', 'x [sim replay=text bad_chunk]'],
  ])('bad_chunk slips a chunk no Gemini answer has into %s, after its first chunk', async (_, prompt) => {
    const [plain, bad] = await Promise.all([
      stream(userText(prompt.replace(' bad_chunk', ''))).then(async (response) => ssePayloads(await response.text())),
      stream(userText(prompt)).then(async (response) => ssePayloads(await response.text())),
    ]);
    expect(bad).toHaveLength(plain.length + 1);
    expect(JSON.parse(bad[1]!)).toEqual({ candidates: [{ content: { parts: [{ functionCall: { partialArgs: 5 } }], role: 'model' }, index: 0 }] });
    expect(bad.filter((_, index) => index !== 1).map((payload) => JSON.parse(payload).candidates)).toEqual(plain.map((payload) => JSON.parse(payload).candidates));
  });

  it('refuses an unknown directive in Google error shape', async () => {
    const response = await stream(userText('Hi [sim statsu=500]'));
    expect(response.status).toBe(400);
    expect(((await response.json()) as GeminiErrorBody).error).toMatchObject({ status: 'INVALID_ARGUMENT', message: expect.stringContaining("Unknown simulator directive 'statsu'") });
  });
});

describe('replay of recorded Gemini responses', () => {
  it.each(['text', 'reasoning', 'tool-call'])('replays %s.json byte for byte', async (name) => {
    const response = await postGemini(simulator.current, 'gemini-2.5-flash', 'generateContent', userText(`x [sim replay=${name}]`));
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(readRecorded(`gemini/${name}.json`))).toBe(true);
  });

  it.each(['text', 'reasoning', 'tool-call'])('streams %s.chunks.txt one line per data event', async (name) => {
    const lines = readRecorded(`gemini/${name}.chunks.txt`).toString('utf8').split('\n').filter(Boolean);
    const response = await stream(userText(`x [sim replay=${name}]`));
    expect(await response.text()).toBe(lines.map((line) => `data: ${line}\n\n`).join(''));
  });

  it('says which recording is missing', async () => {
    const response = await stream(userText('x [sim replay=nothing-like-this]'));
    expect(response.status).toBe(400);
    expect(((await response.json()) as GeminiErrorBody).error.message).toContain('gemini/nothing-like-this.chunks.txt');
  });
});
