import { readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { startSimulator, type SimulatorHandle } from '@model-gateway/simulator';
import type { ResolvedProvider } from '../resolved-provider';
import { UpstreamError } from '../upstream-error';
import { type ResponsesCall, type ResponsesStreamEvent, openaiResponsesAdapter } from './openai-responses';

const FIXTURES = path.join(__dirname, '../../../test/fixtures/recorded/openai-responses');
const recordedJson = (name: string) => JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8'));
const recordedLines = readFileSync(path.join(FIXTURES, 'reasoning-encrypted-content.chunks.txt'), 'utf8').split('\n').filter(Boolean);
/** The recorded stream holds four turns of an agent loop; the simulator replays the first to a first request. */
const firstTurn = recordedLines.slice(0, recordedLines.findIndex((line, index) => index > 0 && line.startsWith('{"type":"response.created"'))).map((line) => JSON.parse(line));

let sim: SimulatorHandle;
beforeAll(async () => {
  sim = await startSimulator({ fixturesDir: path.dirname(FIXTURES) });
});
afterAll(() => sim.close());

function provider(baseUrl: string): ResolvedProvider {
  return { name: 'openai', type: 'openai', baseUrl, apiKey: 'k', timeoutMs: 5000, headers: { 'openai-project': 'proj_test' }, simulated: true };
}

function call(body: Record<string, unknown>, upstreamModel = 'gpt-4.1-mini', baseUrl = `${sim.url}/v1`): ResponsesCall {
  return { provider: provider(baseUrl), upstreamModel, body: { model: 'client-name', ...body }, signal: new AbortController().signal };
}

async function collect(stream: AsyncGenerator<ResponsesStreamEvent>): Promise<ResponsesStreamEvent[]> {
  const events: ResponsesStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

async function lastLoggedRequest(): Promise<{ path: string; headers: Record<string, string>; body: Record<string, unknown> }> {
  const log = (await (await fetch(`${sim.url}/_sim/requests?limit=1`)).json()) as { requests: [{ path: string; headers: Record<string, string>; body: Record<string, unknown> }] };
  return log.requests[0];
}

const eventsOf = (events: ResponsesStreamEvent[]) => events.flatMap((e) => (e.type === 'event' ? [e] : []));
const usagesOf = (events: ResponsesStreamEvent[]) => events.flatMap((e) => (e.type === 'usage' ? [e.usage] : []));

describe('OpenAI Responses adapter, whole answers', () => {
  it('sends the client body under the upstream model, with the key and headers, and reads answer and usage', async () => {
    const { response, usage } = await openaiResponsesAdapter.create(call({ input: 'Say hello', stream: false, stream_options: { include_obfuscation: false }, metadata: { app: 'x' } }));

    const sent = await lastLoggedRequest();
    expect(sent.path).toBe('/v1/responses');
    expect(sent.body).toEqual({ model: 'gpt-4.1-mini', input: 'Say hello', metadata: { app: 'x' } });
    expect(sent.headers).toMatchObject({ authorization: '[redacted]', 'openai-project': 'proj_test' });
    expect(response).toMatchObject({ object: 'response', status: 'completed', model: 'gpt-4.1-mini', metadata: { app: 'x' } });
    const wire = response.usage as { input_tokens: number; output_tokens: number };
    expect(usage).toEqual({
      inputTokens: wire.input_tokens, outputTokens: wire.output_tokens, reasoningTokens: 0, cacheReadTokens: 0,
      cacheWriteTokens: { ttl5m: 0, ttl1h: 0 }, reportsCache: true, family: 'openai', raw: response.usage,
    });
  });

  it.each(['parallel-tool-call', 'reasoning-encrypted-content'])('reads the recorded %s answer unchanged, usage normalised', async (name) => {
    const recorded = recordedJson(name);
    const { response, usage } = await openaiResponsesAdapter.create(call({ input: `Go [sim replay=${name}]` }, 'gpt-5'));

    expect(response).toEqual(recorded);
    expect(Object.keys(response)).toEqual(Object.keys(recorded));
    expect(usage).toEqual({
      inputTokens: recorded.usage.input_tokens, outputTokens: recorded.usage.output_tokens,
      reasoningTokens: recorded.usage.output_tokens_details.reasoning_tokens, cacheReadTokens: 0,
      cacheWriteTokens: { ttl5m: 0, ttl1h: 0 }, reportsCache: true, family: 'openai', raw: recorded.usage,
    });
  });

  it('passes a 400 with its message, code and param; marks 429 retryable with its Retry-After', async () => {
    const refused = await openaiResponsesAdapter.create(call({ input: 'Hi', temperature: 0.3 }, 'gpt-5')).catch((e) => e);
    expect(refused).toBeInstanceOf(UpstreamError);
    expect(refused.message).toBe("Unsupported parameter: 'temperature' is not supported with this model.");
    expect(refused.details).toMatchObject({ status: 400, retryable: false, code: null, type: 'invalid_request_error', param: 'temperature' });

    const limited = await openaiResponsesAdapter.create(call({ input: 'x [sim status=429 retry_after=3]' })).catch((e) => e);
    expect(limited.details).toMatchObject({ status: 429, retryable: true, retryAfterSeconds: 3, code: 'rate_limit_exceeded' });
  });

  it('reports a refused connection as retryable, before any answer', async () => {
    const refused = await openaiResponsesAdapter.create(call({ input: 'x' }, 'gpt-4.1', 'http://127.0.0.1:9/v1')).catch((e) => e);
    expect(refused.details).toMatchObject({ status: 0, retryable: true, cause: 'connect' });
  });
});

describe('OpenAI Responses adapter, streams', () => {
  it('passes every event through in order, with the usage once, just before response.completed', async () => {
    const events = await collect(openaiResponsesAdapter.stream(call({ input: 'Stream [sim words=20]', stream: false })));

    expect((await lastLoggedRequest()).body).toMatchObject({ model: 'gpt-4.1-mini', stream: true });
    const passed = eventsOf(events);
    for (const e of passed) expect(e.name).toBe(e.data.type);
    expect(passed.map((e) => e.data.sequence_number)).toEqual(passed.map((_, index) => index));
    expect(passed.map((e) => e.name).slice(0, 4)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added']);
    expect(events.at(-1)).toMatchObject({ type: 'event', name: 'response.completed' });
    expect(events.at(-2)!.type).toBe('usage');
    const final = eventsOf(events).at(-1)!.data.response as { usage: { input_tokens: number; output_tokens: number } };
    expect(usagesOf(events)).toEqual([expect.objectContaining({ inputTokens: final.usage.input_tokens, outputTokens: final.usage.output_tokens, raw: final.usage })]);
  });

  it('passes the recorded reasoning stream through event for event, encrypted content included', async () => {
    const events = await collect(openaiResponsesAdapter.stream(call({ input: 'Compute [sim replay=reasoning-encrypted-content]', include: ['reasoning.encrypted_content'] }, 'gpt-5-mini')));

    expect(eventsOf(events).map((e) => e.data)).toEqual(firstTurn);
    expect(eventsOf(events).map((e) => e.name)).toEqual(firstTurn.map((payload) => payload.type));
    expect(usagesOf(events)).toEqual([
      { inputTokens: 134, outputTokens: 28, reasoningTokens: 0, cacheReadTokens: 0, cacheWriteTokens: { ttl5m: 0, ttl1h: 0 }, reportsCache: true, family: 'openai', raw: firstTurn.at(-1).response.usage },
    ]);
  });

  it('throws an upstream error status at the first step, before any event', async () => {
    const stream = openaiResponsesAdapter.stream(call({ input: 'x [sim status=503]' }));
    const failure = await stream.next().catch((e) => e);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect(failure.details).toMatchObject({ status: 503, retryable: true });
  });

  it('reports an in-stream error event and a cut-off stream distinctly', async () => {
    const streamError = await collect(openaiResponsesAdapter.stream(call({ input: 'x [sim stream_error=2]' }))).catch((e) => e);
    expect(streamError).toBeInstanceOf(UpstreamError);
    expect(streamError.details).toMatchObject({ cause: 'upstream_stream_error', retryable: false, code: 'server_error' });

    const cut = await collect(openaiResponsesAdapter.stream(call({ input: 'x [sim cut_after=2 words=50]' }))).catch((e) => e);
    expect(cut.details).toMatchObject({ cause: 'stream_cut', retryable: true });
  });
});

describe('OpenAI Responses adapter, stream endings the simulator does not make', () => {
  let server: Server;
  let frames: string[] = [];
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(frames.join(''));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const named = (payload: Record<string, unknown>) => `event: ${String(payload.type)}\ndata: ${JSON.stringify(payload)}\n\n`;
  const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 4, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 14 };
  const response = (status: string, extra: Record<string, unknown> = {}) => ({ id: 'resp_1', object: 'response', status, output: [], ...extra });
  const streamFrom = (...sent: string[]) => {
    frames = sent;
    return collect(openaiResponsesAdapter.stream(call({ input: 'x' }, 'gpt-4.1', `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`)));
  };

  it('passes events it does not know, ends at response.incomplete with its usage, and tolerates a trailing [DONE]', async () => {
    const events = await streamFrom(
      named({ type: 'response.created', sequence_number: 0, response: response('in_progress') }),
      named({ type: 'response.some_future_event', sequence_number: 1, detail: 7 }),
      named({ type: 'response.incomplete', sequence_number: 2, response: response('incomplete', { usage }) }),
      'data: [DONE]\n\n',
    );

    expect(events.map((e) => (e.type === 'event' ? e.name : 'usage'))).toEqual(['response.created', 'response.some_future_event', 'usage', 'response.incomplete']);
    expect(usagesOf(events)[0]).toMatchObject({ inputTokens: 10, outputTokens: 4 });
  });

  it('throws an in-stream error on response.failed, after its usage', async () => {
    const failed = response('failed', { usage, error: { code: 'server_error', message: 'The model failed to finish.' } });
    const events: ResponsesStreamEvent[] = [];
    frames = [named({ type: 'response.created', sequence_number: 0, response: response('in_progress') }), named({ type: 'response.failed', sequence_number: 1, response: failed })];
    const stream = openaiResponsesAdapter.stream(call({ input: 'x' }, 'gpt-4.1', `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`));
    const failure = await (async () => {
      for await (const event of stream) events.push(event);
    })().catch((e) => e);

    expect(failure).toBeInstanceOf(UpstreamError);
    expect(failure.message).toBe('The model failed to finish.');
    expect(failure.details).toMatchObject({ cause: 'upstream_stream_error', code: 'server_error' });
    expect(events.map((e) => e.type)).toEqual(['event', 'usage']);
  });

  it('calls a stream that closes without a final event cut, even after [DONE]', async () => {
    const cut = await streamFrom(named({ type: 'response.created', sequence_number: 0, response: response('in_progress') }), 'data: [DONE]\n\n').catch((e) => e);
    expect(cut).toBeInstanceOf(UpstreamError);
    expect(cut.details).toMatchObject({ cause: 'stream_cut', retryable: true });
  });

  it('fails at the border on a final usage of the wrong shape, naming the field but not the value', async () => {
    const bad = response('completed', { usage: { ...usage, input_tokens: 'ten' } });
    const failure = await streamFrom(named({ type: 'response.completed', sequence_number: 0, response: bad })).catch((e) => e);

    expect(failure.details).toMatchObject({ cause: 'malformed_answer', status: 502 });
    expect(failure.message).toContain('response.usage.input_tokens');
    expect(failure.message).not.toContain('ten');
  });
});
