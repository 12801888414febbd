import { toFile } from 'openai';
import { AUTH, errorBody, openaiClient, postJson, requestLog, useSimulator } from './simulator-test-kit';

/** The OpenAI Videos API as the simulator speaks it (upstream-protocols §4), judged by the official SDK where it can be. */
const simulator = useSimulator({ videoGenerationMs: 150 });
const smallBodySimulator = useSimulator({ maxBodyBytes: 1024 });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

describe('OpenAI POST /v1/videos', () => {
  it('creates a queued video from a multipart form, and logs the file by name, type and size', async () => {
    await fetch(`${simulator.current.url}/_sim/requests`, { method: 'DELETE' });
    const video = await openaiClient(simulator.current).videos.create({
      model: 'sora-2-pro',
      prompt: 'A lighthouse at dusk',
      seconds: '8',
      size: '1792x1024',
      input_reference: await toFile(png, 'start.png', { type: 'image/png' }),
    });
    expect(video).toEqual({
      id: expect.stringMatching(/^video_[0-9a-f]{32}$/),
      object: 'video',
      model: 'sora-2-pro',
      status: 'queued',
      progress: 0,
      created_at: expect.any(Number),
      completed_at: null,
      expires_at: null,
      prompt: 'A lighthouse at dusk',
      seconds: '8',
      size: '1792x1024',
      remixed_from_video_id: null,
      error: null,
    });
    const [logged] = (await requestLog(simulator.current)).requests;
    expect(logged!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(logged!.body).toEqual({
      model: 'sora-2-pro',
      prompt: 'A lighthouse at dusk',
      seconds: '8',
      size: '1792x1024',
      input_reference: { filename: 'start.png', content_type: 'image/png', size_bytes: png.length },
    });
  });

  it('also takes JSON, with the documented defaults', async () => {
    const response = await postJson(simulator.current, '/v1/videos', { prompt: 'A kite' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ model: 'sora-2', seconds: '4', size: '720x1280', status: 'queued' });
  });

  it.each([
    [{ prompt: '' }, 'prompt'],
    [{ prompt: 'x', model: 'sora-3' }, 'model'],
    [{ prompt: 'x', seconds: 8 }, 'seconds'],
    [{ prompt: 'x', seconds: '10' }, 'seconds'],
    [{ prompt: 'x', model: 'sora-2', size: '1792x1024' }, 'size'],
    [{ prompt: 'x', input_reference: { content_type: 'image/gif' } }, 'input_reference'],
  ])('refuses %j', async (body, param) => {
    const response = await postJson(simulator.current, '/v1/videos', body);
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error.param).toBe(param);
  });

  it('accepts a dated snapshot with its base model sizes', async () => {
    const response = await postJson(simulator.current, '/v1/videos', { prompt: 'x', model: 'sora-2-2025-10-06', size: '1280x720' });
    expect(response.status).toBe(200);
  });

  it('says so when a multipart body cannot be parsed, and when it is too large', async () => {
    const broken = await fetch(`${simulator.current.url}/v1/videos`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'multipart/form-data' },
      body: 'no boundary here',
    });
    expect(broken.status).toBe(400);
    expect((await errorBody(broken)).error.message).toContain('multipart/form-data');

    const form = new FormData();
    form.append('prompt', 'x');
    form.append('input_reference', new Blob([Buffer.alloc(4096)], { type: 'image/png' }), 'big.png');
    const tooLarge = await fetch(`${smallBodySimulator.current.url}/v1/videos`, { method: 'POST', headers: AUTH, body: form });
    expect(tooLarge.status).toBe(413);
  });
});

describe('OpenAI video lifecycle', () => {
  it('goes queued, in_progress with rising progress, then completed with its times', async () => {
    const client = openaiClient(simulator.current);
    const created = await client.videos.create({ model: 'sora-2', prompt: 'Waves [sim gen_ms=300]' });
    await sleep(60);
    const running = await client.videos.retrieve(created.id);
    expect(running.status).toBe('in_progress');
    expect(running.progress).toBeGreaterThanOrEqual(10);
    expect(running.progress).toBeLessThan(100);
    let done = running;
    while (done.status !== 'completed') done = await sleep(25).then(() => client.videos.retrieve(created.id));
    expect(done).toMatchObject({ status: 'completed', progress: 100, error: null });
    expect(done.expires_at! - done.completed_at!).toBe(3600);
  });

  it('fails by directive, and fails a moderated video with moderation_blocked', async () => {
    const client = openaiClient(simulator.current);
    const failed = await client.videos.create({ prompt: 'x [sim fail gen_ms=0]' });
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'generation_failed' } });
    const moderated = await client.videos.create({ prompt: 'x [sim moderated gen_ms=0]' });
    expect((await client.videos.retrieve(moderated.id)).error).toMatchObject({ code: 'moderation_blocked' });
  });

  it('fails the first retrieves with the planned status when asked', async () => {
    const client = openaiClient(simulator.current);
    const video = await client.videos.create({ prompt: 'x [sim status=503 poll_fail_times=1 gen_ms=0]' });
    await expect(client.videos.retrieve(video.id)).rejects.toMatchObject({ status: 503 });
    await expect(client.videos.retrieve(video.id)).resolves.toMatchObject({ status: 'completed' });
  });

  it('remixes a completed video into a new one, and only a completed one', async () => {
    const client = openaiClient(simulator.current);
    const source = await client.videos.create({ model: 'sora-2-pro', prompt: 'x [sim gen_ms=0]', seconds: '12', size: '1024x1792' });
    const remix = await client.videos.remix(source.id, { prompt: 'Now at night' });
    expect(remix).toMatchObject({ model: 'sora-2-pro', seconds: '12', size: '1024x1792', prompt: 'Now at night', remixed_from_video_id: source.id });
    expect(remix.id).not.toBe(source.id);
    await expect(client.videos.remix(remix.id, { prompt: 'again' })).rejects.toMatchObject({ status: 400 });
    await expect(client.videos.remix('video_unknown', { prompt: 'again' })).rejects.toMatchObject({ status: 404 });
  });

  it('deletes a video, after which it is gone', async () => {
    const client = openaiClient(simulator.current);
    const video = await client.videos.create({ prompt: 'x' });
    expect(await client.videos.delete(video.id)).toEqual({ id: video.id, object: 'video.deleted', deleted: true });
    await expect(client.videos.retrieve(video.id)).rejects.toMatchObject({ status: 404 });
  });
});

describe('OpenAI GET /v1/videos/{id}/content', () => {
  it('answers 404 in the OpenAI envelope before completion', async () => {
    const client = openaiClient(simulator.current);
    const video = await client.videos.create({ prompt: 'x [sim never]' });
    await expect(client.videos.downloadContent(video.id)).rejects.toMatchObject({ status: 404, code: 'content_not_available' });
  });

  it('streams a deterministic MP4 sized by duration and pixels', async () => {
    const client = openaiClient(simulator.current);
    const first = await client.videos.create({ model: 'sora-2', prompt: 'Same [sim gen_ms=0]', seconds: '8', size: '1280x720' });
    const second = await client.videos.create({ model: 'sora-2', prompt: 'Same [sim gen_ms=0]', seconds: '8', size: '1280x720' });
    const response = await client.videos.downloadContent(first.id, { variant: 'video' });
    expect(response.headers.get('content-type')).toBe('video/mp4');
    expect(response.headers.get('content-length')).toBe('1600000');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length).toBe(1_600_000);
    expect(bytes.subarray(4, 12).toString('latin1')).toBe('ftypisom');
    expect(bytes.readUInt32BE(0)).toBe(32);
    expect(bytes.readUInt32BE(32)).toBe(1_600_000 - 32);
    expect(bytes.subarray(36, 40).toString('latin1')).toBe('mdat');
    const again = Buffer.from(await (await client.videos.downloadContent(second.id)).arrayBuffer());
    expect(again.equals(bytes)).toBe(true);
  });

  it('serves the thumbnail and spritesheet variants, refuses others, and hides an expired video', async () => {
    const client = openaiClient(simulator.current);
    const video = await client.videos.create({ prompt: 'x [sim gen_ms=0]' });
    const thumbnail = Buffer.from(await (await client.videos.downloadContent(video.id, { variant: 'thumbnail' })).arrayBuffer());
    expect([thumbnail.subarray(0, 4).toString('latin1'), thumbnail.subarray(8, 12).toString('latin1')]).toEqual(['RIFF', 'WEBP']);
    const spritesheet = Buffer.from(await (await client.videos.downloadContent(video.id, { variant: 'spritesheet' })).arrayBuffer());
    expect([spritesheet.subarray(0, 2).toString('hex'), spritesheet.subarray(-2).toString('hex')]).toEqual(['ffd8', 'ffd9']);
    const odd = await fetch(`${simulator.current.url}/v1/videos/${video.id}/content?variant=gif`, { headers: AUTH });
    expect(odd.status).toBe(400);
    const expired = await client.videos.create({ prompt: 'x [sim expire gen_ms=0]' });
    expect(await client.videos.retrieve(expired.id)).toMatchObject({ status: 'completed' });
    await expect(client.videos.downloadContent(expired.id)).rejects.toMatchObject({ status: 404 });
  });
});
