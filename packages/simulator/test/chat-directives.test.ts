import OpenAI from 'openai';
import { eventually, openaiClient, postJson, readUntilClosed, requestLog, ssePayloads, useSimulator } from './simulator-test-kit';

const simulator = useSimulator();
let client: OpenAI;
beforeAll(() => {
  client = openaiClient(simulator.current);
});

const ask = (content: string, extra: Partial<OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming> = {}) =>
  client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content }], ...extra });

const postChat = (content: string, extra: object = {}, init: RequestInit = {}) =>
  postJson(simulator.current, '/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content }], ...extra }, init);

describe('error directives', () => {
  it('status=429 retry_after=2 gives a rate-limit error with a retry-after header', async () => {
    const failure = await ask('Hi [sim status=429 retry_after=2]').catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(OpenAI.RateLimitError);
    const rateLimit = failure as InstanceType<typeof OpenAI.RateLimitError>;
    expect(rateLimit.headers.get('retry-after')).toBe('2');
    expect(rateLimit.error).toEqual({ message: expect.stringContaining('Rate limit reached for gpt-4o'), type: 'requests', param: null, code: 'rate_limit_exceeded' });
  });

  it('status=500 and status=503 give server errors', async () => {
    await expect(ask('Hi [sim status=500]')).rejects.toMatchObject({ status: 500, error: { type: 'server_error' } });
    await expect(ask('Hi [sim status=503]')).rejects.toBeInstanceOf(OpenAI.InternalServerError);
  });

  it('status=400 code=... gives a bad request with that code', async () => {
    await expect(ask('Hi [sim status=400 code=unsupported_parameter]')).rejects.toMatchObject({ status: 400, code: 'unsupported_parameter', error: { type: 'invalid_request_error' } });
  });

  it('status=404 gives model_not_found, like the unknown-model id', async () => {
    await expect(ask('Hi [sim status=404]')).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    await expect(ask('Hi', { model: 'unknown-model' })).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
  });

  it('fail_times=1 fails the first sighting of a prompt and answers the next', async () => {
    const prompt = `Retry me ${Date.now()} [sim fail_times=1 status=503]`;

    expect((await postChat(prompt)).status).toBe(503);
    expect((await postChat(prompt)).status).toBe(200);
    expect((await postChat(prompt, { model: 'gpt-4o-mini' })).status).toBe(200);
  });

  it('rejects an unknown directive instead of ignoring it', async () => {
    await expect(ask('Hi [sim statsu=500]')).rejects.toMatchObject({ status: 400, message: expect.stringContaining("Unknown simulator directive 'statsu'") });
  });

  it('reads directives from the last user message only', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'Old turn [sim status=500]' },
        { role: 'assistant', content: 'Answer' },
        { role: 'user', content: 'New turn' },
      ],
    });
    expect(completion.choices[0]!.finish_reason).toBe('stop');
  });
});

describe('timing directives', () => {
  it('latency delays the first byte', async () => {
    const started = Date.now();
    await ask('Hi [sim latency=200]');
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('pace spaces the stream events', async () => {
    const started = Date.now();
    const response = await postChat('Hi [sim pace=20 words=6 chunk=100]', { stream: true });
    const payloads = ssePayloads(await response.text());
    // role, one content chunk, finish, [DONE]: three gaps.
    expect(payloads).toHaveLength(4);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3 * 20 - 5);
  });

  it('hang holds the request until the client leaves, and the log counts the abort', async () => {
    const before = (await requestLog(simulator.current)).aborted;
    const abort = new AbortController();
    const pending = postChat('Hi [sim hang]', {}, { signal: abort.signal });
    setTimeout(() => abort.abort(), 100);

    await expect(pending).rejects.toThrow();
    await eventually(async () => (await requestLog(simulator.current)).aborted === before + 1);
  });

  it('counts a client that leaves mid-stream as aborted', async () => {
    const before = (await requestLog(simulator.current)).aborted;
    const abort = new AbortController();
    const response = await postChat('Hi [sim pace=50 words=100 chunk=4]', { stream: true }, { signal: abort.signal });
    const reader = response.body!.getReader();
    await reader.read();
    abort.abort();

    await eventually(async () => (await requestLog(simulator.current)).aborted === before + 1);
  });
});

describe('answer directives', () => {
  it('words sets the answer length', async () => {
    const completion = await ask('Hi [sim words=200]');
    expect(completion.choices[0]!.message.content!.split(/\s+/)).toHaveLength(200);
  });

  it('chunk sets the characters per content chunk', async () => {
    const payloads = ssePayloads(await (await postChat('Hi [sim chunk=5 words=30]', { stream: true })).text());
    const pieces = payloads.slice(1, -2).map((payload) => JSON.parse(payload).choices[0].delta.content as string);

    expect(pieces.slice(0, -1).every((piece) => piece.length === 5)).toBe(true);
    expect(pieces.at(-1)!.length).toBeLessThanOrEqual(5);
  });

  it('does not let the directives change the answer', async () => {
    const plain = await ask('Same question');
    const steered = await ask('Same question [sim latency=1]');
    expect(steered.choices[0]!.message.content).toBe(plain.choices[0]!.message.content);
  });
});

describe('broken streams', () => {
  it('garbage_after sends a frame that is not JSON after N content chunks, then ends without [DONE]', async () => {
    const raw = await (await postChat('Hi [sim garbage_after=2 words=50]', { stream: true })).text();
    const payloads = ssePayloads(raw);
    expect(payloads).toHaveLength(4);
    expect(() => JSON.parse(payloads.at(-1)!)).toThrow();
    expect(payloads.slice(0, 3).every((p) => JSON.parse(p).object === 'chat.completion.chunk')).toBe(true);
    expect(raw).not.toContain('[DONE]');
  });

  it('reset drops the connection without an answer; with fail_times only the first N times', async () => {
    await expect(postChat('Hi [sim reset]')).rejects.toThrow();
    const prompt = `Hi ${Math.random()} [sim reset fail_times=1]`;
    await expect(postChat(prompt)).rejects.toThrow();
    expect((await postChat(prompt)).status).toBe(200);
  });

  it('cut_after closes the connection after N content chunks: no finish, no usage, no [DONE]', async () => {
    const before = (await requestLog(simulator.current)).aborted;
    const response = await postChat('Hi [sim cut_after=3 words=50]', { stream: true, stream_options: { include_usage: true } });
    const { text, failed } = await readUntilClosed(response);
    const chunks = ssePayloads(text).map((payload) => JSON.parse(payload));

    expect(failed).toBe(true);
    expect(chunks).toHaveLength(4);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(chunks.slice(1).every((chunk) => typeof chunk.choices[0].delta.content === 'string' && chunk.choices[0].finish_reason === null)).toBe(true);
    expect(text).not.toContain('[DONE]');
    expect((await requestLog(simulator.current)).aborted).toBe(before);
  });

  it('cut_after makes the SDK fail mid-stream', async () => {
    const stream = await client.chat.completions.create({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'Hi [sim cut_after=2]' }] });
    const received: string[] = [];
    const consume = async () => {
      for await (const chunk of stream) received.push(chunk.choices[0]?.delta.content ?? '');
    };

    await expect(consume()).rejects.toThrow();
    expect(received).toHaveLength(3);
  });

  it('stream_error sends an in-stream error event that the SDK throws', async () => {
    const raw = await (await postChat('Hi [sim stream_error=2]', { stream: true })).text();
    const payloads = ssePayloads(raw);
    expect(payloads).toHaveLength(4);
    expect(JSON.parse(payloads.at(-1)!)).toEqual({ error: { message: expect.any(String), type: 'server_error', param: null, code: null } });
    expect(raw).not.toContain('[DONE]');

    const stream = await client.chat.completions.create({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'Hi [sim stream_error=1]' }] });
    await expect(
      (async () => {
        for await (const _chunk of stream);
      })(),
    ).rejects.toBeInstanceOf(OpenAI.APIError);
  });
});
