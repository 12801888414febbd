import { eventually } from '../../../test/support/eventually';
import { type SimulatorHandle, startSimulator } from '@model-gateway/simulator';
import { UpstreamError } from '../upstream-error';
import type { VideoCall, VideoPoll } from '../video-adapter';
import { openAIVideosAdapter } from './openai-videos';

let sim: SimulatorHandle;
beforeAll(async () => {
  sim = await startSimulator({ videoGenerationMs: 100 });
});
afterAll(() => sim.close());

function call(upstreamModel = 'sora-2'): VideoCall {
  return {
    provider: { name: 'openai', type: 'openai', baseUrl: `${sim.url}/v1`, apiKey: 'k', timeoutMs: 5000, headers: {}, simulated: true },
    upstreamModel,
    signal: new AbortController().signal,
  };
}

async function submit(prompt: string, upstreamModel = 'sora-2'): Promise<string> {
  return (await openAIVideosAdapter.submit(call(upstreamModel), { prompt, durationSeconds: 4, size: '1280x720' })).upstreamId;
}

function pollUntilSettled(upstreamId: string): Promise<VideoPoll> {
  return eventually(async () => {
    const poll = await openAIVideosAdapter.poll(call(), upstreamId);
    return poll.status.state === 'pending' ? undefined : poll;
  }, `upstream task ${upstreamId} to settle`, 10_000);
}

async function readAll(body: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('OpenAI Videos adapter against the simulator', () => {
  it('uploads the form with its input_reference file, polls pending with progress, then completed without a URL', async () => {
    await fetch(`${sim.url}/_sim/requests`, { method: 'DELETE' });
    const image = Buffer.from('89504e470d0a1a0a', 'hex');
    const { upstreamId, raw } = await openAIVideosAdapter.submit(call('sora-2-pro'), {
      prompt: 'A lighthouse "at" dusk [sim gen_ms=2000]',
      durationSeconds: 8,
      size: '1024x1792',
      image: { file: { filename: 'start.png', contentType: 'image/png', data: image } },
    });
    expect(upstreamId).toMatch(/^video_/);
    expect(raw).toMatchObject({ id: upstreamId, status: 'queued', seconds: '8', size: '1024x1792' });
    const [logged] = ((await (await fetch(`${sim.url}/_sim/requests`)).json()) as { requests: { body: unknown }[] }).requests;
    expect(logged!.body).toEqual({
      model: 'sora-2-pro',
      prompt: 'A lighthouse "at" dusk [sim gen_ms=2000]',
      seconds: '8',
      size: '1024x1792',
      input_reference: { filename: 'start.png', content_type: 'image/png', size_bytes: image.length },
    });

    // 2 s of generation: still pending at the first poll, however long a loaded machine took to get here.
    const first = await openAIVideosAdapter.poll(call(), upstreamId);
    expect(first.status).toEqual({ state: 'pending', upstreamStatus: expect.stringMatching(/^(queued|in_progress)$/), progress: expect.any(Number) });
    expect((await pollUntilSettled(upstreamId)).status).toEqual({ state: 'completed', upstreamStatus: 'completed', progress: 100 });
  });

  it('reports a failed video with its error', async () => {
    expect((await pollUntilSettled(await submit('x [sim fail gen_ms=0]'))).status).toEqual({
      state: 'failed',
      upstreamStatus: 'failed',
      error: { code: 'generation_failed', message: 'The video could not be generated.' },
    });
  });

  it('throws a retryable UpstreamError with Retry-After for a 429 poll', async () => {
    const upstreamId = await submit('x [sim status=429 retry_after=4 poll_fail_times=1 gen_ms=0]');
    const err = await openAIVideosAdapter.poll(call(), upstreamId).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as UpstreamError).details).toMatchObject({ status: 429, retryable: true, retryAfterSeconds: 4 });
    expect((await openAIVideosAdapter.poll(call(), upstreamId)).status.state).toBe('completed');
  });

  it('keeps the upstream reason for a refused submission', async () => {
    const err = await openAIVideosAdapter.submit(call(), { prompt: 'x', durationSeconds: 5 }).catch((e: unknown) => e);
    expect((err as UpstreamError).details).toMatchObject({ status: 400, retryable: false, param: 'seconds', code: 'invalid_value' });
  });

  it('remixes into a new upstream video', async () => {
    const source = await submit('x [sim gen_ms=0]');
    const { upstreamId, raw } = await openAIVideosAdapter.remix!(call(), source, 'Now at night [sim gen_ms=0]');
    expect(upstreamId).not.toBe(source);
    expect(raw).toMatchObject({ remixed_from_video_id: source, prompt: 'Now at night [sim gen_ms=0]' });
    expect((await pollUntilSettled(upstreamId)).status.state).toBe('completed');
  });

  it('streams the content with its type and length, and throws 404 before completion', async () => {
    const done = await submit('x [sim gen_ms=0]');
    const content = await openAIVideosAdapter.content!(call(), done, 'video');
    expect(content.status).toBe(200);
    expect(content.headers).toEqual({ 'content-type': 'video/mp4', 'content-length': '800000' });
    const bytes = await readAll(content.body);
    expect(bytes.length).toBe(800_000);
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');

    const running = await submit('x [sim never]');
    await expect(openAIVideosAdapter.content!(call(), running, 'video')).rejects.toMatchObject({ details: { status: 404, retryable: false } });
  });
});
