import { eventually } from '../../../test/support/eventually';
import { type SimulatorHandle, startSimulator } from '@model-gateway/simulator';
import { UpstreamError } from '../upstream-error';
import type { VideoCall, VideoPoll } from '../video-adapter';
import { xaiVideoAdapter } from './xai-video';

let sim: SimulatorHandle;
beforeAll(async () => {
  sim = await startSimulator({ videoGenerationMs: 100 });
});
afterAll(() => sim.close());

function call(baseUrl = `${sim.url}/v1`): VideoCall {
  return {
    provider: { name: 'xai', type: 'xai', baseUrl, apiKey: 'k', timeoutMs: 5000, headers: {}, simulated: true },
    upstreamModel: 'grok-imagine-video',
    signal: new AbortController().signal,
  };
}

async function submit(prompt: string): Promise<string> {
  const { upstreamId } = await xaiVideoAdapter.submit(call(), { prompt, durationSeconds: 5, resolution: '720p', aspectRatio: '16:9' });
  return upstreamId;
}

function pollUntilSettled(upstreamId: string): Promise<VideoPoll> {
  return eventually(async () => {
    const poll = await xaiVideoAdapter.poll(call(), upstreamId);
    return poll.status.state === 'pending' ? undefined : poll;
  }, `upstream task ${upstreamId} to settle`, 10_000);
}

async function loggedRequests(): Promise<{ method: string; path: string; body: unknown }[]> {
  return ((await (await fetch(`${sim.url}/_sim/requests`)).json()) as { requests: { method: string; path: string; body: unknown }[] }).requests;
}

describe('xAI video adapter against the simulator', () => {
  it('submits the documented body, polls pending, then completed with url, duration and moderation', async () => {
    await fetch(`${sim.url}/_sim/requests`, { method: 'DELETE' });
    const { upstreamId, raw } = await xaiVideoAdapter.submit(call(), {
      prompt: 'A fox in snow [sim gen_ms=300]',
      durationSeconds: 5,
      resolution: '720p',
      aspectRatio: '9:16',
      image: { url: 'https://example.com/start.png' },
    });
    expect(raw).toEqual({ request_id: upstreamId });
    expect((await loggedRequests())[0]).toMatchObject({
      method: 'POST',
      path: '/v1/videos/generations',
      body: { model: 'grok-imagine-video', prompt: 'A fox in snow [sim gen_ms=300]', duration: 5, resolution: '720p', aspect_ratio: '9:16', image: { url: 'https://example.com/start.png' } },
    });

    const first = await xaiVideoAdapter.poll(call(), upstreamId);
    expect(first.status).toEqual({ state: 'pending', upstreamStatus: 'pending', progress: expect.any(Number) });
    const done = await pollUntilSettled(upstreamId);
    expect(done.status).toEqual({
      state: 'completed',
      upstreamStatus: 'done',
      videoUrl: `https://vidgen.x.ai/xai-vidgen-bucket/xai-video-${upstreamId}.mp4`,
      durationSeconds: 5,
      respectModeration: true,
      progress: 100,
    });
    expect(done.raw).toMatchObject({ usage: { cost_in_usd_ticks: 3_500_000_000 } });
  });

  it('sends an uploaded start image inline as a data URL', async () => {
    await fetch(`${sim.url}/_sim/requests`, { method: 'DELETE' });
    const data = Buffer.from('png-bytes');
    await xaiVideoAdapter.submit(call(), { prompt: 'x', durationSeconds: 3, image: { file: { filename: 'a.png', contentType: 'image/png', data } } });
    expect((await loggedRequests())[0]!.body).toMatchObject({ image: { url: `data:image/png;base64,${data.toString('base64')}` } });
  });

  it('reports moderation, failure and expiry', async () => {
    expect((await pollUntilSettled(await submit('x [sim moderated gen_ms=0]'))).status).toMatchObject({ state: 'completed', respectModeration: false });
    expect((await pollUntilSettled(await submit('x [sim fail code=blocked gen_ms=0]'))).status).toEqual({
      state: 'failed',
      upstreamStatus: 'failed',
      error: { code: 'blocked', message: 'The video could not be generated.' },
    });
    expect((await pollUntilSettled(await submit('x [sim expire gen_ms=0]'))).status).toEqual({ state: 'expired', upstreamStatus: 'expired' });
  });

  it('throws a retryable UpstreamError with Retry-After for a 429 poll, and goes on once the upstream does', async () => {
    const upstreamId = await submit('x [sim status=429 retry_after=7 poll_fail_times=2 gen_ms=0]');
    for (let attempt = 0; attempt < 2; attempt++) {
      const err = await xaiVideoAdapter.poll(call(), upstreamId).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UpstreamError);
      expect((err as UpstreamError).details).toMatchObject({ status: 429, retryable: true, retryAfterSeconds: 7, code: 'rate_limit_exceeded' });
    }
    expect((await xaiVideoAdapter.poll(call(), upstreamId)).status.state).toBe('completed');
  });

  it('marks a 5xx poll retryable and a refused submission not', async () => {
    const upstreamId = await submit('x [sim status=503 poll_fail_times=1 gen_ms=0]');
    await expect(xaiVideoAdapter.poll(call(), upstreamId)).rejects.toMatchObject({ details: { status: 503, retryable: true } });
    const refused = await xaiVideoAdapter.submit(call(), { prompt: 'x', durationSeconds: 20 }).catch((e: unknown) => e);
    expect((refused as UpstreamError).details).toMatchObject({ status: 400, retryable: false, param: 'duration' });
    await expect(xaiVideoAdapter.poll(call(), 'no-such-id')).rejects.toMatchObject({ details: { status: 404, retryable: false } });
  });
});
