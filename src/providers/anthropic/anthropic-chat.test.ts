import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startSimulator, type SimulatorHandle } from '@model-gateway/simulator';
import type { ChatCall, ChatStreamEvent } from '../chat-adapter';
import type { ChatCompletionChunk } from '../chat-types';
import { UpstreamError } from '../upstream-error';
import type { ProviderUsage } from '../usage';
import { anthropicChatAdapter } from './anthropic-chat';

const FIXTURES = path.join(__dirname, '../../../test/fixtures/recorded/anthropic');
const recordedJson = (name: string) => JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8'));
const recordedEvents = (name: string) =>
  readFileSync(path.join(FIXTURES, `${name}.chunks.txt`), 'utf8').trim().split('\n').map((line) => JSON.parse(line));

let sim: SimulatorHandle;
beforeAll(async () => {
  sim = await startSimulator({ fixturesDir: path.dirname(FIXTURES) });
});
afterAll(() => sim.close());

function call(content: string, extra: Partial<ChatCall['request']> = {}): ChatCall {
  return {
    provider: { name: 'anthropic', type: 'anthropic', baseUrl: `${sim.url}/v1`, apiKey: 'k', timeoutMs: 5000, headers: {}, simulated: true },
    upstreamModel: 'claude-sonnet-4-5',
    family: 'anthropic',
    request: { model: 'client-name', max_tokens: 1000, messages: [{ role: 'user', content }], ...extra },
    signal: new AbortController().signal,
  };
}

async function collect(c: ChatCall): Promise<{ chunks: ChatCompletionChunk[]; usage: ProviderUsage[]; partialUsage: ProviderUsage[] }> {
  const events: ChatStreamEvent[] = [];
  for await (const event of anthropicChatAdapter.stream(c)) events.push(event);
  return {
    chunks: events.flatMap((e) => (e.type === 'chunk' ? [e.chunk] : [])),
    usage: events.flatMap((e) => (e.type === 'usage' && !e.partial ? [e.usage] : [])),
    partialUsage: events.flatMap((e) => (e.type === 'usage' && e.partial ? [e.usage] : [])),
  };
}

/** Every chunk of one answer carries the message's id and model; what differs is the delta and the finish reason. */
function deltasOf(chunks: ChatCompletionChunk[], id: string, model: string): [object, string | null][] {
  for (const chunk of chunks) expect(chunk).toMatchObject({ id, model, object: 'chat.completion.chunk', created: expect.any(Number) });
  return chunks.map((chunk) => [chunk.choices[0]!.delta, chunk.choices[0]!.finish_reason]);
}

const noCache = { cacheReadTokens: 0, cacheWriteTokens: { ttl5m: 0, ttl1h: 0 }, reportsCache: true, family: 'anthropic' };

describe('Anthropic adapter on recorded whole answers', () => {
  it('text.json: the text, end_turn as stop, the usage normalised', async () => {
    const wire = recordedJson('text');
    const { completion, usage } = await anthropicChatAdapter.complete(call('[sim replay=text]'));
    expect(completion).toEqual({
      id: 'msg_01VdEjxAP5ahtHKrrRdNBteQ',
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'claude-sonnet-4-5-20250929',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?" },
          finish_reason: 'stop',
        },
      ],
    });
    expect(usage).toEqual({ inputTokens: 12, outputTokens: 29, reasoningTokens: 0, ...noCache, raw: wire.usage });
  });

  it('thinking.json: the thinking as reasoning text and as a signed reasoning detail', async () => {
    const wire = recordedJson('thinking');
    const { completion, usage } = await anthropicChatAdapter.complete(call('[sim replay=thinking]'));
    expect(completion.choices).toEqual([
      {
        index: 0,
        message: {
          role: 'assistant',
          content: '925 ÷ 5 = 185',
          reasoning_content: '925 divided by 5 = 185',
          reasoning_details: [{ type: 'thinking', thinking: '925 divided by 5 = 185', signature: wire.content[0].signature }],
        },
        finish_reason: 'stop',
      },
    ]);
    expect(wire.content[0].signature).toMatch(/^Er4BCkYICxgCKkCoxqLHLrx4/);
    expect(completion).toMatchObject({ id: 'msg_01XrsJCi8CQoLcnnWdY8RsJz', model: 'claude-sonnet-4-5-20250929' });
    // Thinking is inside output_tokens; this recording does not report it apart.
    expect(usage).toEqual({ inputTokens: 69, outputTokens: 33, reasoningTokens: 0, ...noCache, raw: wire.usage });
  });

  it('tool-no-args.json: the text and a tool call whose arguments are the empty object', async () => {
    const wire = recordedJson('tool-no-args');
    const { completion, usage } = await anthropicChatAdapter.complete(call('[sim replay=tool-no-args]'));
    expect(completion.choices).toEqual([
      {
        index: 0,
        message: {
          role: 'assistant',
          content: wire.content[0].text,
          tool_calls: [{ id: 'toolu_01LRmxn9vGM1d2DZSDBowdZ1', type: 'function', function: { name: 'updateIssueList', arguments: '{}' } }],
        },
        finish_reason: 'tool_calls',
      },
    ]);
    expect(completion).toMatchObject({ id: 'msg_01GCBaV8gyWAYgMVggRqZbuQ', model: 'claude-3-opus-20240229' });
    expect(usage).toEqual({ inputTokens: 602, outputTokens: 93, reasoningTokens: 0, ...noCache, raw: wire.usage });
  });
});

describe('Anthropic adapter on recorded streams', () => {
  it('text.chunks.txt: a role chunk, the text deltas, the finish chunk, then the cumulative usage', async () => {
    const events = recordedEvents('text');
    const { chunks, usage, partialUsage } = await collect(call('[sim replay=text]', { stream: true }));
    // The prompt side is reported at once, in case the stream never reaches its end.
    expect(partialUsage).toEqual([expect.objectContaining({ inputTokens: events[0].message.usage.input_tokens })]);
    expect(deltasOf(chunks, 'msg_01QC4g3HwBThD4BaNtBckFDJ', 'claude-sonnet-4-5-20250929')).toEqual([
      [{ role: 'assistant', content: '' }, null],
      [{ content: 'Hello' }, null],
      [{ content: '! I' }, null],
      [{ content: "'m doing well, thank you for asking" }, null],
      [{ content: '. How are you doing today?' }, null],
      [{ content: ' Is' }, null],
      [{ content: ' there anything I can help you with?' }, null],
      [{}, 'stop'],
    ]);
    expect(usage).toEqual([
      { inputTokens: 12, outputTokens: 30, reasoningTokens: 0, ...noCache, raw: { ...events[0].message.usage, ...events.at(-2).usage } },
    ]);
  });

  it('thinking.chunks.txt: thinking deltas, then the whole block with the signature from signature_delta, then the text', async () => {
    const events = recordedEvents('thinking');
    const signature = events.find((e) => e.delta?.type === 'signature_delta').delta.signature;
    const { chunks, usage } = await collect(call('[sim replay=thinking]', { stream: true }));
    expect(deltasOf(chunks, 'msg_01Y6V41gqPaKWEw7iPouH7iW', 'claude-sonnet-4-5-20250929')).toEqual([
      [{ role: 'assistant', content: '' }, null],
      ...['The previous', ' result', ' was', ' 925.', ' Now', ' I need to divide that', ' by 5.\n\n925', ' ÷ 5 ', '= 185'].map((piece) => [{ reasoning_content: piece }, null]),
      [{ reasoning_details: [{ type: 'thinking', thinking: 'The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185', signature }] }, null],
      [{ content: '925' }, null],
      [{ content: ' ÷ 5 ' }, null],
      [{ content: '= 185' }, null],
      [{}, 'stop'],
    ]);
    expect(signature).toMatch(/^EvQBCkYICxgCKkAxhD4NUKFzudtZ6/);
    expect(usage).toEqual([
      { inputTokens: 69, outputTokens: 53, reasoningTokens: 0, ...noCache, raw: { ...events[0].message.usage, ...events.at(-2).usage } },
    ]);
  });

  it('tool-no-args.chunks.txt: the tool call whole in one delta at the end of the message, "{}" as the arguments of a call that streamed none', async () => {
    const events = recordedEvents('tool-no-args');
    const { chunks, usage } = await collect(call('[sim replay=tool-no-args]', { stream: true }));
    expect(deltasOf(chunks, 'msg_01GE2RKp1VYsPzdFs3sS9z5S', 'claude-sonnet-4-5-20250929')).toEqual([
      [{ role: 'assistant', content: '' }, null],
      [{ content: "I'll update the issue list for" }, null],
      [{ content: ' you.' }, null],
      [{ tool_calls: [{ index: 0, id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', type: 'function', function: { name: 'updateIssueList', arguments: '{}' } }] }, null],
      [{}, 'tool_calls'],
    ]);
    expect(usage).toEqual([
      { inputTokens: 565, outputTokens: 48, reasoningTokens: 0, ...noCache, raw: { ...events[0].message.usage, ...events.at(-2).usage } },
    ]);
  });

  it('message-delta-input-tokens.chunks.txt: the input count of message_delta wins over message_start', async () => {
    const { chunks, usage } = await collect(call('[sim replay=message-delta-input-tokens]', { stream: true }));
    expect(deltasOf(chunks, 'msg_3196a1cc08de4d76b85b8f5777c0d42b', 'claude-opus-4-5-20251101')).toEqual([
      [{ role: 'assistant', content: '' }, null],
      [{ content: 'p' }, null],
      [{ content: 'ong' }, null],
      [{}, 'stop'],
    ]);
    // No cache fields at all: this upstream reported nothing about the cache, so its zeros are not measurements.
    expect(usage).toEqual([
      {
        inputTokens: 61, outputTokens: 2, reasoningTokens: 0, cacheReadTokens: 0, cacheWriteTokens: { ttl5m: 0, ttl1h: 0 },
        reportsCache: false, family: 'anthropic', raw: { input_tokens: 61, output_tokens: 2 },
      },
    ]);
  });
});

describe('Anthropic adapter against the simulator', () => {
  it('sends the key, the version and the Messages body', async () => {
    await fetch(`${sim.url}/_sim/requests`, { method: 'DELETE' });
    await anthropicChatAdapter.complete(call('Hi', { temperature: 0.5, stop: 'END', user: 'u-1' }));
    const log = (await (await fetch(`${sim.url}/_sim/requests`)).json()) as { requests: { path: string; headers: Record<string, string>; body: unknown }[] };
    const [sent] = log.requests;
    expect(sent!.path).toBe('/v1/messages');
    expect(sent!.headers).toMatchObject({ 'x-api-key': '[redacted]', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' });
    expect(sent!.body).toEqual({
      model: 'claude-sonnet-4-5', max_tokens: 1000, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      temperature: 0.5, stop_sequences: ['END'], metadata: { user_id: 'u-1' },
    });
  });

  it('keeps a tool round trip with thinking valid, and the simulator rejects it when the thinking was dropped or altered', async () => {
    const thinking = { enabled: true, budgetTokens: 1024 };
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }];
    const first = await anthropicChatAdapter.complete(call('Weather in Paris?', { max_tokens: 2000, thinking, tools }));
    const answer = first.completion.choices[0]!.message;
    expect(answer.tool_calls).toHaveLength(1);
    expect(answer.reasoning_details).toEqual([{ type: 'thinking', thinking: answer.reasoning_content, signature: expect.any(String) }]);

    const followUp = (assistant: object) =>
      call('', {
        max_tokens: 2000, thinking, tools,
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          { role: 'assistant', content: null, ...assistant },
          { role: 'tool', tool_call_id: answer.tool_calls![0]!.id, content: '18°C and sunny' },
        ],
      });
    const second = await anthropicChatAdapter.complete(followUp({ tool_calls: answer.tool_calls, reasoning_details: answer.reasoning_details }));
    expect(second.completion.choices[0]!.message.content).toContain('The tool returned: 18°C and sunny.');

    const dropped = await anthropicChatAdapter.complete(followUp({ tool_calls: answer.tool_calls })).catch((e) => e);
    expect(dropped).toBeInstanceOf(UpstreamError);
    expect(dropped.details).toMatchObject({ status: 400, retryable: false, code: 'invalid_request_error' });
    expect(dropped.message).toMatch(/^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`/);

    const altered = [{ ...answer.reasoning_details![0]!, thinking: 'something else' }];
    const tampered = await anthropicChatAdapter.complete(followUp({ tool_calls: answer.tool_calls, reasoning_details: altered })).catch((e) => e);
    expect(tampered.message).toBe('messages.1.content.0: Invalid `signature` in `thinking` block');
  });

  it('a stream that restarts mid tool input gives the restarted message\'s one tool call and its usage alone', async () => {
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }];
    const prompt = 'Weather in Paris? [sim restart_after=2]';
    const { chunks, usage, partialUsage } = await collect(call(prompt, { stream: true, tools }));
    const calls = chunks.flatMap((c) => c.choices[0]!.delta.tool_calls ?? []);
    expect(calls).toEqual([{ index: 0, id: expect.stringMatching(/^toolu_01/), type: 'function', function: { name: 'get_weather', arguments: expect.any(String) } }]);
    expect(JSON.parse(calls[0]!.function!.arguments!)).toEqual({ city: expect.any(String) });
    // Both messages reported their prompt side; the final usage is the restarted message's, the same as a whole answer's.
    expect(partialUsage).toHaveLength(2);
    const whole = await anthropicChatAdapter.complete(call(prompt, { tools }));
    expect(usage).toEqual([expect.objectContaining({ inputTokens: whole.usage!.inputTokens, outputTokens: whole.usage!.outputTokens })]);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('streams a redacted thinking block as one whole reasoning detail, with no reasoning text', async () => {
    const trigger = 'ANTHROPIC_MAGIC_STRING_TRIGGER_REDACTED_THINKING_46C9A13E193C177646C7398A98432ECCCE4C1253D5E2D82641AC0E52CC2876CB';
    const { chunks } = await collect(call(trigger, { stream: true, max_tokens: 2000, thinking: { enabled: true, budgetTokens: 1024 } }));
    const details = chunks.flatMap((c) => c.choices[0]!.delta.reasoning_details ?? []);
    expect(details).toEqual([{ type: 'redacted_thinking', data: expect.any(String) }]);
    expect(chunks.some((c) => c.choices[0]!.delta.reasoning_content)).toBe(false);
  });
});

describe('Anthropic adapter errors', () => {
  it('529 overloaded is retryable, 400 is not, and a 429 keeps its Retry-After', async () => {
    const overloaded = await anthropicChatAdapter.complete(call('x [sim status=529]')).catch((e) => e);
    expect(overloaded).toBeInstanceOf(UpstreamError);
    expect(overloaded.details).toMatchObject({ status: 529, retryable: true, code: 'overloaded_error' });
    expect(overloaded.message).toBe('Overloaded');
    const invalid = await anthropicChatAdapter.complete(call('x', { thinking: { enabled: true, budgetTokens: 500 } })).catch((e) => e);
    expect(invalid.details).toMatchObject({ status: 400, retryable: false, code: 'invalid_request_error' });
    expect(invalid.message).toBe('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
    const limited = await anthropicChatAdapter.complete(call('x [sim status=429 retry_after=3]')).catch((e) => e);
    expect(limited.details).toMatchObject({ status: 429, retryable: true, retryAfterSeconds: 3, code: 'rate_limit_error' });
  });

  it('turns an error status before the stream into an UpstreamError on the first step', async () => {
    const stream = anthropicChatAdapter.stream(call('x [sim status=500]', { stream: true }));
    const err = await stream.next().catch((e) => e);
    expect(err.details).toMatchObject({ status: 500, retryable: true, code: 'api_error' });
  });

  it('reports an in-stream error event as a retryable 529 and a cut-off stream as stream_cut', async () => {
    const streamError = await collect(call('x [sim stream_error=2]', { stream: true })).catch((e) => e);
    expect(streamError).toBeInstanceOf(UpstreamError);
    expect(streamError.details).toMatchObject({ status: 529, retryable: true, code: 'overloaded_error', cause: 'upstream_stream_error' });
    const cut = await collect(call('x [sim cut_after=2 words=50]', { stream: true })).catch((e) => e);
    expect(cut.details).toMatchObject({ status: 502, retryable: true, cause: 'stream_cut' });
  });

  it('refuses before any upstream call what Anthropic cannot express', async () => {
    const noMaxTokens = call('x');
    delete noMaxTokens.request.max_tokens;
    await expect(anthropicChatAdapter.complete(noMaxTokens)).rejects.toMatchObject({ name: 'UnsupportedParameterError', param: 'max_tokens' });
    await expect(anthropicChatAdapter.stream(call('x', { n: 2 })).next()).rejects.toMatchObject({ param: 'n' });
  });
});
