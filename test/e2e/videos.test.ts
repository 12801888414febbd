import { eventually, readUntil } from '../support/eventually';
import OpenAI, { toFile } from 'openai';
import { fastVideoConfig } from '../support/fast-video-config';
import { fetchUsageRecord, simulatorRequests, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

describe.each(TEST_DATABASES)('video generation (%s)', (database) => {
  let t: TestGateway;
  let key: string;

  beforeAll(async () => {
    t = await startTestGateway({ database, config: fastVideoConfig({ timeout_ms: 3000 }) });
    key = await t.createKey({ name: 'videos' });
  });
  afterAll(() => t?.close());

  async function call(method: string, path: string, body?: unknown, as = key) {
    const res = await fetch(`${t.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${as}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  }

  async function until(id: string, done: (body: any) => boolean, timeoutMs = 8000) {
    let last: unknown;
    return eventually(async () => {
      const { body } = await call('GET', `/v1/videos/${id}`);
      last = body;
      return done(body) ? body : undefined;
    }, () => `task ${id}, still ${JSON.stringify(last)}`, timeoutMs, 100);
  }

  it('text-to-video: pending, then the finished video exactly as the spec shows, with the hold settled', async () => {
    const submitted = await call('POST', '/v1/videos', { model: 'gen-imagine-video', prompt: 'A cat surfing [sim gen_ms=600]' });
    expect(submitted.status).toBe(200);
    expect(Object.keys(submitted.body)).toEqual(['request_id']);
    const id = submitted.body.request_id;
    expect((await call('GET', `/v1/videos/${id}`)).body).toEqual({ status: 'pending' });

    const held = (await fetchUsageRecord(t, key, submitted.headers.get('x-svc-request-id')!)).body;
    expect(held.billing).toMatchObject({ state: 'held', amount_microusd: 300_000, held_microusd: 300_000 });
    expect(held.usage.dimensions).toEqual([{ name: 'video_seconds_480p', quantity: 6, unit: 'seconds' }]);

    const done = await until(id, (b) => !b.status);
    expect(done).toEqual({ model: 'gen-imagine-video', video: { url: expect.stringMatching(/^https:\/\//), duration: '6', respect_moderation: 'true' } });
    const settled = (await fetchUsageRecord(t, key, submitted.headers.get('x-svc-request-id')!)).body;
    expect(settled.billing).toMatchObject({ state: 'settled', amount_microusd: 300_000 });

    const { requests } = await simulatorRequests(t);
    const upstreamSubmit = requests.find((r) => r.path === '/v1/videos/generations' && r.body.prompt.startsWith('A cat surfing'))!;
    expect(upstreamSubmit.body).toMatchObject({ model: 'grok-imagine-video', duration: 6, resolution: '480p', aspect_ratio: '16:9' });
    // The client's id is the gateway's; the upstream's stays inside the gateway.
    expect(id).toMatch(/^video_[0-9a-f]{32}$/);
    const task = await t.gateway.db.prisma.videoTask.findUnique({ where: { id } });
    expect(task!.upstreamId).toBeTruthy();
    expect(JSON.stringify(submitted.body)).not.toContain(task!.upstreamId);
  });

  it('image-to-video on /v1/videos/generations at 720p holds 10 s at the 720p price', async () => {
    const image = 'https://images.example.com/start.png';
    const submitted = await call('POST', '/v1/videos/generations', { model: 'gen-imagine-video', prompt: 'Waves roll in [sim gen_ms=200]', duration: 10, resolution: '720p', aspect_ratio: '9:16', image: { url: image } });
    expect(submitted.status).toBe(200);
    const done = await until(submitted.body.request_id, (b) => !b.status);
    expect(done.video.duration).toBe('10');
    const { requests } = await simulatorRequests(t);
    expect(requests.find((r) => r.body?.prompt?.startsWith('Waves roll in'))!.body).toMatchObject({ image: { url: image }, duration: 10, resolution: '720p', aspect_ratio: '9:16' });
    const record = (await fetchUsageRecord(t, key, submitted.headers.get('x-svc-request-id')!)).body;
    expect(record.billing).toMatchObject({ state: 'settled', amount_microusd: 1_000_000 });
  });

  it('a moderated video is a completed task, not an error, and is charged', async () => {
    const submitted = await call('POST', '/v1/videos', { model: 'gen-imagine-video', prompt: 'Something [sim gen_ms=100 moderated]' });
    const done = await until(submitted.body.request_id, (b) => !b.status);
    expect(done.video.respect_moderation).toBe('false');
    expect((await fetchUsageRecord(t, key, submitted.headers.get('x-svc-request-id')!)).body.billing.state).toBe('settled');
  });

  it.each([
    ['fails upstream', 'x [sim gen_ms=100 fail]', 'failed', 'generation_failed'],
    ['expires upstream', 'x [sim gen_ms=100 expire]', 'expired', 'expired'],
    ['never finishes and times out', 'x [sim never]', 'expired', 'generation_timeout'],
  ])('a task that %s ends with an error object and a refund', async (_what, prompt, status, code) => {
    const submitted = await call('POST', '/v1/videos', { model: 'gen-imagine-video', prompt, duration: 4 });
    const done = await until(submitted.body.request_id, (b) => b.status !== 'pending');
    expect(done).toEqual({ status, error: { code, message: expect.any(String) } });
    const record = (await fetchUsageRecord(t, key, submitted.headers.get('x-svc-request-id')!)).body;
    expect(record.billing).toMatchObject({ state: 'refunded', amount_microusd: 0, held_microusd: 200_000 });
  });

  it('family B with the openai SDK: create, poll, download the content, remix', async () => {
    const client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
    const created = await client.videos.create({ model: 'sora-2', prompt: 'A lighthouse at dusk [sim gen_ms=200]', seconds: '8', size: '1280x720' });
    expect(created).toMatchObject({ object: 'video', model: 'sora-2', status: 'queued', seconds: '8', size: '1280x720' });
    expect(created.id).toMatch(/^video_[0-9a-f]{32}$/);
    const video = await readUntil(() => client.videos.retrieve(created.id), (v) => v.status === 'completed', `video ${created.id} to complete`, 8000, 100);
    expect(video.progress).toBe(100);

    const content = await client.videos.downloadContent(created.id);
    const bytes = Buffer.from(await content.arrayBuffer());
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(bytes.length).toBe(Number(content.headers.get('content-length')));

    const remix = await client.videos.remix(created.id, { prompt: 'The same, at dawn [sim gen_ms=100]' });
    expect(remix).toMatchObject({ remixed_from_video_id: created.id, status: 'queued', seconds: '8' });
    const { requests } = await simulatorRequests(t);
    const upstreamRemix = requests.find((r) => /^\/v1\/videos\/[^/]+\/remix$/.test(r.path))!;
    expect(upstreamRemix.path).not.toContain(created.id);
  });

  it('family B image-to-video uploads input_reference as multipart', async () => {
    const client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const created = await client.videos.create({ model: 'sora-2-pro', prompt: 'Animate this [sim gen_ms=100]', size: '1792x1024', input_reference: await toFile(png, 'start.png', { type: 'image/png' }) });
    expect(created.size).toBe('1792x1024');
    const { requests } = await simulatorRequests(t);
    const upstream = requests.find((r) => r.path === '/v1/videos' && r.body?.prompt?.startsWith('Animate this'))!;
    expect(upstream.body.input_reference).toMatchObject({ filename: 'start.png', content_type: 'image/png', size_bytes: png.length });
    const record = await t.gateway.db.prisma.usageRecord.findFirst({ where: { taskId: created.id } });
    expect(record!.heldMicrousd).toBe(2_000_000n); // 4 s at $0.50 for 1080p
  });

  it('tasks belong to the key that submitted them', async () => {
    const other = await t.createKey({ name: 'other' });
    const xai = await call('POST', '/v1/videos', { model: 'gen-imagine-video', prompt: 'mine [sim gen_ms=100]' });
    const sora = await call('POST', '/v1/videos', { model: 'sora-2', prompt: 'mine too [sim gen_ms=100]' });
    for (const path of [`/v1/videos/${xai.body.request_id}`, `/v1/videos/${sora.body.id}`, `/v1/videos/${sora.body.id}/content`]) {
      const res = await call('GET', path, undefined, other);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('video_not_found');
    }
    expect((await call('POST', `/v1/videos/${sora.body.id}/remix`, { prompt: 'steal' }, other)).status).toBe(404);
  });

  it('an upstream 429 on a poll pushes the next poll back by its Retry-After', async () => {
    const submittedAt = Date.now();
    const submitted = await call('POST', '/v1/videos', { model: 'gen-imagine-video', prompt: 'busy [sim gen_ms=100 status=429 retry_after=2 poll_fail_times=1]' });
    const id = submitted.body.request_id;
    const task = await readUntil(() => t.gateway.db.prisma.videoTask.findUniqueOrThrow({ where: { id } }), (row) => row.pollCount > 0, `the first poll of task ${id}`, 5000, 50);
    expect(task.status).not.toBe('completed');
    // Counted from before the submission, which the poll follows: the row's write time trails the poll by as
    // long as a loaded machine takes to answer and write, and the gateway counts from the poll's start.
    expect(task.nextPollAt.getTime() - submittedAt).toBeGreaterThanOrEqual(2000);
    await until(id, (b) => !b.status, 6000);
  });

  describe('every invalid field is a 400 naming it, before any upstream call and without charge', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['no model', { prompt: 'x' }, 'model'],
      ['no prompt', { model: 'gen-imagine-video' }, 'prompt'],
      ['an empty prompt', { model: 'gen-imagine-video', prompt: '  ' }, 'prompt'],
      ['duration 0', { model: 'gen-imagine-video', prompt: 'x', duration: 0 }, 'duration'],
      ['duration 16', { model: 'gen-imagine-video', prompt: 'x', duration: 16 }, 'duration'],
      ['a fractional duration', { model: 'gen-imagine-video', prompt: 'x', duration: 2.5 }, 'duration'],
      ['a duration as text', { model: 'gen-imagine-video', prompt: 'x', duration: '6' }, 'duration'],
      ['resolution 1080p', { model: 'gen-imagine-video', prompt: 'x', resolution: '1080p' }, 'resolution'],
      ['aspect ratio 21:9', { model: 'gen-imagine-video', prompt: 'x', aspect_ratio: '21:9' }, 'aspect_ratio'],
      ['an http image URL', { model: 'gen-imagine-video', prompt: 'x', image: { url: 'http://example.com/a.png' } }, 'image.url'],
      ['an image without url', { model: 'gen-imagine-video', prompt: 'x', image: {} }, 'image.url'],
      ['an unknown field', { model: 'gen-imagine-video', prompt: 'x', fps: 24 }, ''],
      ['sora seconds 5', { model: 'sora-2', prompt: 'x', seconds: '5' }, 'seconds'],
      ['a size sora-2 does not make', { model: 'sora-2', prompt: 'x', size: '1792x1024' }, 'size'],
    ];
    it.each(cases)('%s', async (_name, body, param) => {
      const before = (await simulatorRequests(t)).requests.length;
      const res = await call('POST', '/v1/videos', body);
      expect(res.status).toBe(400);
      if (param) expect(res.body.error.param).toBe(param);
      else expect(res.body.error.message).toMatch(/fps/);
      expect((await simulatorRequests(t)).requests.length).toBe(before);
      const record = (await fetchUsageRecord(t, key, res.headers.get('x-svc-request-id')!)).body;
      expect(record.billing.amount_microusd).toBe(0);
    });

    it('unknown model, wrong endpoint, remix and content rules', async () => {
      expect((await call('POST', '/v1/videos', { model: 'veo-9', prompt: 'x' })).body.error.code).toBe('model_not_found');
      expect((await call('POST', '/v1/videos', { model: 'gpt-4.1', prompt: 'x' })).body.error.code).toBe('model_not_supported_on_endpoint');
      expect((await call('POST', '/v1/videos/generations', { model: 'sora-2', prompt: 'x' })).body.error.code).toBe('model_not_supported_on_endpoint');
      const xai = await call('POST', '/v1/videos', { model: 'gen-imagine-video', prompt: 'y [sim gen_ms=100]' });
      expect((await call('GET', `/v1/videos/${xai.body.request_id}/content`)).body.error.code).toBe('content_not_available');
      expect((await call('POST', `/v1/videos/${xai.body.request_id}/remix`, { prompt: 'z' })).body.error.code).toBe('remix_not_supported');
      const pending = await call('POST', '/v1/videos', { model: 'sora-2', prompt: 'slow [sim gen_ms=5000]' });
      const early = await call('GET', `/v1/videos/${pending.body.id}/content`);
      expect(early.status).toBe(409);
      expect(early.body.error.code).toBe('video_not_ready');
      expect((await call('POST', `/v1/videos/${pending.body.id}/remix`, { prompt: 'z' })).status).toBe(409);
      expect((await call('POST', `/v1/videos/${pending.body.id}/remix`, { prompt: '' })).status).toBe(409);
      expect((await call('GET', '/v1/videos/video_nope')).status).toBe(404);
    });
  });
});

describe('a GET of a due task polls it at once, without the background poller', () => {
  let t: TestGateway;
  afterAll(() => t?.close());

  it('advances the task on the client\'s own polls', async () => {
    t = await startTestGateway({ config: fastVideoConfig({ first_poll_after_ms: 0 }), env: { GATEWAY_VIDEO_POLLER: 'false' } });
    const key = await t.createKey();
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const submitted = (await (await fetch(`${t.url}/v1/videos`, { method: 'POST', headers, body: JSON.stringify({ model: 'gen-imagine-video', prompt: 'go [sim gen_ms=150]' }) })).json()) as any;
    // Wait, on the upstream itself, for the video to be done; nothing in the gateway has polled the task meanwhile.
    const { upstreamId } = await t.gateway.db.prisma.videoTask.findUniqueOrThrow({ where: { id: submitted.request_id } });
    const upstreamTask = async () => (await (await fetch(`${t.simulatorUrl}/v1/videos/${upstreamId}`, { headers: { authorization: 'Bearer sim' } })).json()) as { status: string };
    await readUntil(upstreamTask, (u) => u.status === 'done', `upstream video ${upstreamId} to be done`, 5000, 50);
    expect((await t.gateway.db.prisma.videoTask.findUniqueOrThrow({ where: { id: submitted.request_id } })).pollCount).toBe(0);
    const done = (await (await fetch(`${t.url}/v1/videos/${submitted.request_id}`, { headers })).json()) as any;
    expect(done.video.url).toMatch(/^https:/);
  });
});
