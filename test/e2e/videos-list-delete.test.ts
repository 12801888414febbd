import OpenAI from 'openai';
import { startSimulator, type SimulatorHandle } from '@model-gateway/simulator';
import { TaskDocument, TasksDocument } from '../graphql/generated/graphql';
import { graphqlHttp } from '../graphql/graphql-test-client';
import { readUntil } from '../support/eventually';
import { fastVideoConfig } from '../support/fast-video-config';
import { fetchUsageRecord, simulatorRequests, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

/** `GET /v1/videos` and `DELETE /v1/videos/{id}` with the official SDK: the key's own videos only, paged as OpenAI pages them. */
describe.each(TEST_DATABASES)('listing and deleting videos (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  let client: OpenAI;
  /** The key's sora videos, oldest first. */
  const ids: string[] = [];
  let xaiTask: string;

  beforeAll(async () => {
    t = await startTestGateway({ database, config: fastVideoConfig() });
    key = await t.createKey({ name: 'lister' });
    client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
    for (let i = 0; i < 5; i++) ids.push((await client.videos.create({ model: 'sora-2', prompt: `list ${i} [sim gen_ms=100]` })).id);
    xaiTask = await submitXai(key, 'not an OpenAI video [sim gen_ms=100]');
    for (const id of ids) await readUntil(() => client.videos.retrieve(id), (v) => v.status === 'completed', `video ${id} to complete`, 8000, 50);
  });
  afterAll(() => t?.close());

  async function call(method: string, path: string, as = key) {
    const res = await fetch(`${t.url}${path}`, { method, headers: { authorization: `Bearer ${as}` } });
    return { status: res.status, body: (await res.json()) as any };
  }

  async function submitXai(as: string, prompt: string): Promise<string> {
    const res = await fetch(`${t.url}/v1/videos`, { method: 'POST', headers: { authorization: `Bearer ${as}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gen-imagine-video', prompt, duration: 2 }) });
    return ((await res.json()) as { request_id: string }).request_id;
  }

  it("lists the key's OpenAI-style videos newest first, and the SDK's auto-pagination walks every page once", async () => {
    const first = await client.videos.list({ limit: 2 });
    expect(first.data.map((v) => v.id)).toEqual([ids[4], ids[3]]);
    expect(first.has_more).toBe(true);
    expect(first.data[0]).toMatchObject({ object: 'video', model: 'sora-2', status: 'completed', progress: 100, prompt: 'list 4 [sim gen_ms=100]' });

    const seen: string[] = [];
    for await (const video of client.videos.list({ limit: 2 })) seen.push(video.id);
    expect(seen).toEqual([...ids].reverse()); // three pages, no xAI-style task among them

    const raw = await call('GET', '/v1/videos?limit=5');
    expect(raw.body).toEqual({ object: 'list', data: expect.any(Array), first_id: ids[4], last_id: ids[0], has_more: false });
  });

  it('order=asc lists oldest first, and pages on after the id it is given', async () => {
    const asc = await client.videos.list({ order: 'asc', limit: 3 });
    expect(asc.data.map((v) => v.id)).toEqual(ids.slice(0, 3));
    const rest = await client.videos.list({ order: 'asc', after: ids[2] });
    expect(rest.data.map((v) => v.id)).toEqual(ids.slice(3));
    expect(rest.has_more).toBe(false);
  });

  it('another key lists nothing of it and cannot read or delete it', async () => {
    const other = await t.createKey({ name: 'other' });
    const theirs = new OpenAI({ apiKey: other, baseURL: t.baseURL, maxRetries: 0 });
    const page = await theirs.videos.list();
    expect(page.data).toEqual([]);
    expect(page.has_more).toBe(false);
    for (const attempt of [() => theirs.videos.retrieve(ids[0]), () => theirs.videos.delete(ids[0])]) {
      await expect(attempt()).rejects.toMatchObject({ status: 404, code: 'video_not_found' });
    }
    // Nor can it page after it: the id is not one of its videos.
    const after = await call('GET', `/v1/videos?after=${ids[0]}`, other);
    expect(after.status).toBe(400);
    expect(after.body.error).toMatchObject({ code: 'invalid_parameter', param: 'after' });
    expect((await client.videos.retrieve(ids[0])).status).toBe('completed');
  });

  it('delete removes the video here and upstream; it is then missing everywhere, and its usage record stays', async () => {
    const target = ids[1];
    const { upstreamId, requestId } = await t.gateway.db.prisma.videoTask.findUniqueOrThrow({ where: { id: target } });
    expect(await client.videos.delete(target)).toEqual({ id: target, object: 'video.deleted', deleted: true });

    await expect(client.videos.retrieve(target)).rejects.toMatchObject({ status: 404, code: 'video_not_found' });
    await expect(client.videos.downloadContent(target)).rejects.toMatchObject({ status: 404 });
    await expect(client.videos.remix(target, { prompt: 'again' })).rejects.toMatchObject({ status: 404 });
    await expect(client.videos.delete(target)).rejects.toMatchObject({ status: 404, code: 'video_not_found' });
    const listed: string[] = [];
    for await (const video of client.videos.list()) listed.push(video.id);
    expect(listed).not.toContain(target);
    expect((await graphqlHttp(t, key, TaskDocument, { id: target })).data!.task).toBeNull();
    expect((await graphqlHttp(t, key, TasksDocument, { first: 50 })).data!.tasks.edges.map((e) => e.node.id)).not.toContain(target);

    // The upstream was asked to delete its copy, by the upstream's id.
    const { requests } = await simulatorRequests(t);
    expect(requests.some((r) => r.path === `/v1/videos/${upstreamId}` && r.method === 'DELETE')).toBe(true);
    // The money is never forgotten: the record is there, settled; the row keeps no prompt.
    const record = await fetchUsageRecord(t, key, requestId);
    expect(record.status).toBe(200);
    expect(record.body.billing).toMatchObject({ state: 'settled', amount_microusd: 400_000 });
    const row = await t.gateway.db.prisma.videoTask.findUniqueOrThrow({ where: { id: target } });
    expect(row.deletedAt).toBeInstanceOf(Date);
    expect((row.params as { prompt: string }).prompt).toBe('');
  });

  it('a page goes on after a video deleted since it was listed', async () => {
    const first = await client.videos.list({ limit: 1 });
    const lastSeen = first.data[0].id;
    await client.videos.delete(lastSeen);
    const next = await first.getNextPage();
    expect(next.data.length).toBeGreaterThan(0);
    expect(next.data.map((v) => v.id)).not.toContain(lastSeen);
  });

  it('a video still being generated cannot be deleted (409) and is left as it was', async () => {
    const running = await client.videos.create({ model: 'sora-2', prompt: 'slow [sim gen_ms=20000]' });
    const refused = await call('DELETE', `/v1/videos/${running.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'video_not_ready', param: 'video_id' });
    expect((await client.videos.retrieve(running.id)).status).toMatch(/queued|in_progress/);
  });

  it('an xAI-style task is deleted too, without an upstream call (xAI keeps no copy to delete)', async () => {
    await readUntil(() => call('GET', `/v1/videos/${xaiTask}`), (r) => r.body.video !== undefined, `task ${xaiTask} to finish`, 8000, 50);
    const before = (await simulatorRequests(t)).requests.filter((r) => r.method === 'DELETE').length;
    expect(await call('DELETE', `/v1/videos/${xaiTask}`)).toEqual({ status: 200, body: { id: xaiTask, object: 'video.deleted', deleted: true } });
    expect((await call('GET', `/v1/videos/${xaiTask}`)).status).toBe(404);
    expect((await simulatorRequests(t)).requests.filter((r) => r.method === 'DELETE').length).toBe(before);
  });

  describe('bad input is a 400 or 404 in the error envelope, never a 500', () => {
    it.each([
      ['limit 0', 'limit=0', 'limit'],
      ['limit 101', 'limit=101', 'limit'],
      ['a limit that is no number', 'limit=ten', 'limit'],
      ['a fractional limit', 'limit=2.5', 'limit'],
      ['limit twice', 'limit=1&limit=2', 'limit'],
      ['order sideways', 'order=sideways', 'order'],
      ['a cursor that is no video id', 'after=abc', 'after'],
      ['a cursor with a NUL byte', 'after=video_%00', 'after'],
      ['an unknown video id as cursor', `after=video_${'0'.repeat(32)}`, 'after'],
      ['a very long cursor', `after=${'a'.repeat(5000)}`, 'after'],
    ])('list with %s: 400 naming the parameter', async (_, query, param) => {
      const res = await call('GET', `/v1/videos?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: expect.any(String), param, type: 'invalid_request_error', message: expect.any(String) });
    });

    it.each([
      ['a NUL byte', 'video_%00abc'],
      ['an id of no task', `video_${'f'.repeat(32)}`],
      ['a very long id', 'a'.repeat(5000)],
      ['dots', '..%2e'],
      ['percent-encoded unicode', '%E2%80%AE'],
    ])('get and delete of %s: 404 video_not_found', async (_, id) => {
      for (const method of ['GET', 'DELETE']) {
        const res = await call(method, `/v1/videos/${id}`);
        expect(res.status).toBe(404);
        expect(res.body.error).toMatchObject({ code: 'video_not_found', type: 'not_found_error' });
      }
    });

    it('other methods are 405 naming the allowed ones', async () => {
      const onList = await fetch(`${t.url}/v1/videos`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } });
      expect(onList.status).toBe(405);
      expect(onList.headers.get('allow')).toBe('GET, POST');
      const onOne = await fetch(`${t.url}/v1/videos/${ids[0]}`, { method: 'PUT', headers: { authorization: `Bearer ${key}` } });
      expect(onOne.status).toBe(405);
      expect(onOne.headers.get('allow')).toBe('GET, DELETE');
    });

    it('without a key, the list is a 401', async () => {
      const res = await fetch(`${t.url}/v1/videos`);
      expect(res.status).toBe(401);
    });
  });
});

describe('a deletion the upstream fails', () => {
  let sim: SimulatorHandle | undefined;
  let t: TestGateway | undefined;
  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });

  it('answers the upstream error and leaves the task, to be deleted again', async () => {
    sim = await startSimulator({ videoGenerationMs: 100 });
    const base = fastVideoConfig();
    const config = { ...base, providers: { ...base.providers, openai: { type: 'openai' as const, base_url: `${sim.url}/v1`, api_key_env: 'OPENAI_API_KEY' } } };
    t = await startTestGateway({ config, env: { OPENAI_API_KEY: 'sim' } });
    const client = new OpenAI({ apiKey: await t.createKey(), baseURL: t.baseURL, maxRetries: 0 });
    const { id } = await client.videos.create({ model: 'sora-2', prompt: 'undeletable for now' });
    await readUntil(() => client.videos.retrieve(id), (v) => v.status === 'completed', `video ${id} to complete`, 8000, 50);

    await sim.close();
    sim = undefined;
    const refused = await client.videos.delete(id).catch((err: unknown) => err);
    expect(refused).toMatchObject({ status: 502, code: 'upstream_unreachable' });
    expect((await client.videos.retrieve(id)).status).toBe('completed');
  });
});
