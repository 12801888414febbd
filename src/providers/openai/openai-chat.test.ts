import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startSimulator, type SimulatorHandle } from '@model-gateway/simulator';
import type { ChatCall, ChatStreamEvent } from '../chat-adapter';
import { UpstreamError } from '../upstream-error';
import { openAIChatAdapter } from './openai-chat';

const FIXTURES = path.join(__dirname, '../../../test/fixtures/recorded/openai-chat');
const recordedJson = JSON.parse(readFileSync(path.join(FIXTURES, 'text.json'), 'utf8'));
const recordedChunks = readFileSync(path.join(FIXTURES, 'text.chunks.txt'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));

let sim: SimulatorHandle;
beforeAll(async () => {
  sim = await startSimulator({ fixturesDir: path.dirname(FIXTURES) });
});
afterAll(() => sim.close());

function call(content: string, extra: Partial<ChatCall['request']> = {}, upstreamModel = 'gpt-4.1-nano'): ChatCall {
  return {
    provider: { name: 'openai', type: 'openai', baseUrl: `${sim.url}/v1`, apiKey: 'k', timeoutMs: 5000, headers: {}, simulated: true },
    upstreamModel,
    family: 'openai',
    request: { model: 'client-name', messages: [{ role: 'user', content }], ...extra },
    signal: new AbortController().signal,
  };
}

describe('OpenAI chat adapter against recorded responses', () => {
  it('reads a whole recorded answer unchanged, with its usage normalised', async () => {
    const { completion, usage } = await openAIChatAdapter.complete(call('[sim replay=text]'));
    expect(completion).toEqual(recordedJson);
    expect(usage).toEqual({
      inputTokens: 16, outputTokens: 363, reasoningTokens: 0, cacheReadTokens: 0,
      cacheWriteTokens: { ttl5m: 0, ttl1h: 0 }, reportsCache: true, family: 'openai', raw: recordedJson.usage,
    });
  });

  it('reads a recorded stream chunk for chunk, and its usage chunk as usage', async () => {
    const events: ChatStreamEvent[] = [];
    for await (const e of openAIChatAdapter.stream(call('[sim replay=text]', { stream: true }))) events.push(e);
    const chunks = events.filter((e) => e.type === 'chunk').map((e) => (e as { chunk: unknown }).chunk);
    const withChoices = recordedChunks.filter((c) => c.choices.length);
    expect(chunks).toEqual(withChoices.map((c) => ({ ...c, usage: undefined })));
    const usage = events.filter((e) => e.type === 'usage');
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({ usage: { inputTokens: 16, outputTokens: 300, raw: recordedChunks[recordedChunks.length - 1].usage } });
  });

  it('turns the recorded reasoning-model 400 into an UpstreamError that keeps code and param', async () => {
    const err = await openAIChatAdapter.complete(call('hi', { max_tokens: 10 }, 'o3')).catch((e) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err.details).toMatchObject({ status: 400, retryable: false, code: 'unsupported_parameter', param: 'max_tokens' });
    expect(err.message).toContain("Use 'max_completion_tokens' instead");
  });

  it('marks 429 retryable with its Retry-After, and a refused connection retryable', async () => {
    const limited = await openAIChatAdapter.complete(call('x [sim status=429 retry_after=3]')).catch((e) => e);
    expect(limited.details).toMatchObject({ status: 429, retryable: true, retryAfterSeconds: 3 });
    const dead = call('x');
    dead.provider = { ...dead.provider, baseUrl: 'http://127.0.0.1:9/v1' };
    const refused = await openAIChatAdapter.complete(dead).catch((e) => e);
    expect(refused.details).toMatchObject({ status: 0, retryable: true, cause: 'connect' });
  });

  it('reports an in-stream error event and a cut-off stream distinctly', async () => {
    const drain = async (c: ChatCall) => {
      for await (const _ of openAIChatAdapter.stream(c)) void _;
    };
    const streamError = await drain(call('x [sim stream_error=2]', { stream: true })).catch((e) => e);
    expect(streamError.details.cause).toBe('upstream_stream_error');
    const cut = await drain(call('x [sim cut_after=2 words=50]', { stream: true })).catch((e) => e);
    expect(cut.details.cause).toBe('stream_cut');
  });
});
