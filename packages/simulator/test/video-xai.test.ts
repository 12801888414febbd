import { AUTH, errorBody, postJson, requestLog, useSimulator } from './simulator-test-kit';

/** xAI video generation as the simulator speaks it: upstream-protocols §5. */
const simulator = useSimulator({ videoGenerationMs: 150 });

const valid = { model: 'grok-imagine-video', prompt: 'A cat surfing', duration: 8, aspect_ratio: '9:16', resolution: '720p' };

async function submit(body: object): Promise<string> {
  const response = await postJson(simulator.current, '/v1/videos/generations', body);
  expect(response.status).toBe(200);
  const { request_id: requestId } = (await response.json()) as { request_id: string };
  return requestId;
}

async function poll(requestId: string): Promise<{ status: number; body: Record<string, unknown>; retryAfter: string | null }> {
  const response = await fetch(`${simulator.current.url}/v1/videos/${requestId}`, { headers: AUTH });
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, retryAfter: response.headers.get('retry-after') };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('xAI POST /v1/videos/generations', () => {
  it('answers a valid submission with a uuid request_id only', async () => {
    const response = await postJson(simulator.current, '/v1/videos/generations', { ...valid, image: { url: 'data:image/png;base64,AAAA' } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { request_id: string };
    expect(Object.keys(body)).toEqual(['request_id']);
    expect(body.request_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it.each([
    [{ ...valid, model: 'grok-2' }, 404, null],
    [{ ...valid, prompt: '' }, 400, 'prompt'],
    [{ ...valid, duration: 0 }, 400, 'duration'],
    [{ ...valid, duration: 16 }, 400, 'duration'],
    [{ ...valid, duration: 2.5 }, 400, 'duration'],
    [{ ...valid, resolution: '1080p' }, 400, 'resolution'],
    [{ ...valid, aspect_ratio: '21:9' }, 400, 'aspect_ratio'],
    [{ ...valid, image: { url: 'https://x/a.png' }, reference_images: [{ url: 'https://x/b.png' }] }, 400, 'reference_images'],
    [{ ...valid, image: 'https://x/a.png' }, 400, 'image'],
  ])('refuses %j with %i', async (body, status, param) => {
    const response = await postJson(simulator.current, '/v1/videos/generations', body);
    expect(response.status).toBe(status);
    expect((await errorBody(response)).error.param).toBe(param);
  });

  it('wants a bearer key', async () => {
    const response = await fetch(`${simulator.current.url}/v1/videos/generations`, { method: 'POST', body: JSON.stringify(valid) });
    expect(response.status).toBe(401);
  });

  it('fails the submission itself on a status directive without poll_fail_times, and rejects bad directives', async () => {
    const limited = await postJson(simulator.current, '/v1/videos/generations', { ...valid, prompt: 'x [sim status=429 retry_after=4]' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('4');
    const conflicting = await postJson(simulator.current, '/v1/videos/generations', { ...valid, prompt: 'x [sim fail never]' });
    expect(conflicting.status).toBe(400);
    expect((await errorBody(conflicting)).error.message).toContain('exclude each other');
  });
});

describe('xAI GET /v1/videos/{request_id}', () => {
  it('is pending with a progress, then done with the video, its cost and progress 100', async () => {
    const requestId = await submit({ ...valid, prompt: 'A cat surfing [sim gen_ms=200]' });
    const first = await poll(requestId);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ status: 'pending', progress: expect.any(Number) });
    await sleep(250);
    expect((await poll(requestId)).body).toEqual({
      status: 'done',
      video: { url: `https://vidgen.x.ai/xai-vidgen-bucket/xai-video-${requestId}.mp4`, duration: 8, respect_moderation: true },
      model: 'grok-imagine-video',
      usage: { cost_in_usd_ticks: 8 * 700_000_000 },
      progress: 100,
    });
  });

  it('takes the start-up generation time when the prompt sets none', async () => {
    const requestId = await submit(valid);
    expect((await poll(requestId)).body.status).toBe('pending');
    await sleep(200);
    expect((await poll(requestId)).body.status).toBe('done');
  });

  it('reports moderation, failure and expiry as the directives ask', async () => {
    const moderated = await submit({ ...valid, prompt: 'x [sim moderated gen_ms=0]' });
    expect((await poll(moderated)).body).toMatchObject({ status: 'done', video: { respect_moderation: false } });
    const failed = await submit({ ...valid, prompt: 'x [sim fail code=content_policy gen_ms=0]' });
    expect(await poll(failed)).toEqual({ status: 200, retryAfter: null, body: { status: 'failed', error: { code: 'content_policy', message: expect.any(String) } } });
    const expired = await submit({ ...valid, prompt: 'x [sim expire gen_ms=0]' });
    expect((await poll(expired)).body).toEqual({ status: 'expired' });
    const never = await submit({ ...valid, prompt: 'x [sim never gen_ms=1]' });
    await sleep(20);
    expect((await poll(never)).body).toEqual({ status: 'pending', progress: 99 });
  });

  it('fails the first polls with 429 and Retry-After when asked, counting each in the request log', async () => {
    await fetch(`${simulator.current.url}/_sim/requests`, { method: 'DELETE' });
    const requestId = await submit({ ...valid, prompt: 'x [sim status=429 retry_after=2 poll_fail_times=2 gen_ms=0]' });
    const answers = [await poll(requestId), await poll(requestId), await poll(requestId)];
    expect(answers.map(({ status, retryAfter }) => [status, retryAfter])).toEqual([[429, '2'], [429, '2'], [200, null]]);
    expect(answers[0]!.body).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
    const log = await requestLog(simulator.current);
    expect(log.requests.filter((r) => r.method === 'GET' && r.path === `/v1/videos/${requestId}`)).toHaveLength(3);
  });

  it('answers 404 for an unknown request id', async () => {
    const answer = await poll('0b0e2f64-0000-4000-8000-000000000000');
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: { code: 'not_found' } });
  });
});
