import { eventually } from '../support/eventually';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI, { toFile } from 'openai';
import { openDatabase, type Database } from '../../src/db/database';
import { defaultMigrationsDir, migrate } from '../../src/db/migrate';
import { fastVideoConfig } from '../support/fast-video-config';
import { createTestDatabase } from '../support/postgres-database';
import { fetchUsageRecord, simulatorRequests, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

/** A start frame inline, as large as the API takes it (15 MB of URL), or as large as asked. */
function dataUrl(bytes: number): string {
  return `data:image/png;base64,${randomBytes(Math.floor((bytes * 3) / 4)).toString('base64')}`.slice(0, bytes);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe.each(TEST_DATABASES)('large video inputs stay out of the polled task row (%s)', (database) => {
  let t: TestGateway;
  let key: string;

  beforeAll(async () => {
    t = await startTestGateway({ database, config: fastVideoConfig() });
    key = await t.createKey({ name: 'large-inputs' });
  });
  afterAll(() => t?.close());

  async function submit(body: unknown) {
    const res = await fetch(`${t.url}/v1/videos`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, requestId: res.headers.get('x-svc-request-id')!, body: (await res.json()) as any };
  }

  async function paramsBytes(id: string): Promise<number> {
    const { rows } = await t.gateway.db.query<{ n: number }>('SELECT octet_length("params"::text) AS n FROM "video_tasks" WHERE "id" = $1', [id]);
    return Number(rows[0].n);
  }

  async function until(id: string, done: (body: any) => boolean, timeoutMs = 8000) {
    let last: unknown;
    return eventually(async () => {
      const body = (await (await fetch(`${t.url}/v1/videos/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as any;
      last = body;
      return done(body) ? body : undefined;
    }, () => `task ${id}, still ${JSON.stringify(last)}`, timeoutMs, 100);
  }

  it('a 15 MB data: URL reaches the upstream whole, and the task keeps only its size and digest', async () => {
    const image = dataUrl(15 * 1024 * 1024);
    const submitted = await submit({ model: 'gen-imagine-video', prompt: 'Animate the frame [sim gen_ms=300]', duration: 2, image: { url: image } });
    expect({ status: submitted.status, error: submitted.body.error, logs: submitted.status === 200 ? [] : t.errorLogs() }).toEqual({ status: 200, error: undefined, logs: [] });
    const id = submitted.body.request_id;

    const { requests } = await simulatorRequests(t);
    const upstream = requests.find((r) => r.path === '/v1/videos/generations' && r.body?.prompt?.startsWith('Animate the frame'))!;
    expect(upstream.body.image.url.length).toBe(image.length);
    expect(sha256(upstream.body.image.url)).toBe(sha256(image));

    // What every claim, poll and read of the task loads.
    expect(await paramsBytes(id)).toBeLessThan(1024);
    const row = await t.gateway.db.prisma.videoTask.findUnique({ where: { id } });
    expect(row!.params).toMatchObject({ imageData: { mediaType: 'image/png', bytes: image.length, sha256: sha256(image) } });
    expect(row!.params).not.toHaveProperty('imageUrl');

    // The task runs and bills as any other.
    expect((await until(id, (b) => !b.status)).video.duration).toBe('2');
    expect((await fetchUsageRecord(t, key, submitted.requestId)).body.billing.state).toBe('settled');
  }, 60_000);

  it('an https start frame is small and kept as given', async () => {
    const url = 'https://images.example.com/start.png';
    const submitted = await submit({ model: 'gen-imagine-video', prompt: 'By URL [sim gen_ms=100]', duration: 2, image: { url } });
    const row = await t.gateway.db.prisma.videoTask.findUnique({ where: { id: submitted.body.request_id } });
    expect(row!.params).toMatchObject({ imageUrl: url });
    expect(row!.params).not.toHaveProperty('imageData');
  });

  it('an OpenAI-style task with an uploaded input_reference keeps only its description, and remixes', async () => {
    const client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(2 * 1024 * 1024)]);
    const created = await client.videos.create({ model: 'sora-2', prompt: 'Animate this upload [sim gen_ms=100]', seconds: '4', input_reference: await toFile(png, 'start.png', { type: 'image/png' }) });
    expect(await paramsBytes(created.id)).toBeLessThan(1024);
    const done = await until(created.id, (b) => b.status === 'completed' || b.status === 'failed');
    expect(done.status).toBe('completed');

    const remix = await client.videos.remix(created.id, { prompt: 'The same, at night [sim gen_ms=100]' });
    expect(remix).toMatchObject({ remixed_from_video_id: created.id, status: 'queued', seconds: '4', prompt: 'The same, at night [sim gen_ms=100]' });
    expect((await until(remix.id, (b) => b.status === 'completed' || b.status === 'failed')).status).toBe('completed');
    const row = await t.gateway.db.prisma.videoTask.findUnique({ where: { id: remix.id } });
    expect(row!.params).toMatchObject({ inputReference: { filename: 'start.png', contentType: 'image/png', bytes: png.length } });
  });
});

describe.each(TEST_DATABASES)('tasks written before: the migration moves data: URLs and upstream text out (%s)', (database) => {
  let db: Database | undefined;
  let cleanup: () => Promise<void> = async () => undefined;
  afterAll(async () => {
    await db?.close();
    await cleanup();
  });

  it('keeps size and digest of an inline start frame, and rewords task errors', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-migration-')); // empty: no migration applied yet
    const pg = database === 'postgres' ? await createTestDatabase({ empty: true }) : undefined;
    const before = mkdtempSync(path.join(os.tmpdir(), 'migrations-before-'));
    cleanup = async () => {
      await pg?.drop();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(before, { recursive: true, force: true });
    };
    // The migrations as they were before this change.
    for (const name of readdirSync(defaultMigrationsDir()).filter((n) => n < '20261125120000')) {
      cpSync(path.join(defaultMigrationsDir(), name), path.join(before, name), { recursive: true });
    }
    db = await openDatabase({ databaseUrl: pg?.url, dataDir: path.join(dataDir, 'pglite') });
    await migrate(db, before);

    const image = dataUrl(200_000);
    const insert = (id: string, params: unknown, error: unknown) =>
      db!.query(
        `INSERT INTO "video_tasks" ("id", "key_id", "account_id", "request_id", "model", "api", "provider", "upstream_model", "lane", "status", "params", "error", "next_poll_at", "deadline_at")
         VALUES ($1, 'key_1', 'acct_default', $1, 'gen-imagine-video', 'xai', 'xai', 'grok-imagine-video', 'standard', $2, $3::jsonb, $4::jsonb, now(), now())`,
        [id, error ? 'failed' : 'queued', JSON.stringify(params), error === null ? null : JSON.stringify(error)],
      );
    const params = { prompt: 'p', durationSeconds: 6, resolution: '480p', aspectRatio: '16:9', billingDimension: 'video_seconds_480p' };
    await insert('video_inline', { ...params, imageUrl: image }, null);
    await insert('video_https', { ...params, imageUrl: 'https://example.com/a.png' }, null);
    await insert('video_refused', params, { code: 'upstream_error', message: 'The upstream refused the task: Incorrect API key provided: xai-****abcd' });
    await insert('video_submit', params, { code: 'submission_failed', message: 'The upstream failed (HTTP 500): connect ECONNREFUSED render-7.internal.corp:8443' });
    await insert('video_failed', params, { code: 'Error at gpu-3.internal.corp', message: 'worker gpu-3.internal.corp ran out of memory' });
    await insert('video_blocked', params, { code: 'content_moderation', message: 'prompt mentioned a public figure' });
    await insert('video_timeout', params, { code: 'generation_timeout', message: 'The upstream did not finish the video in time; the charge was refunded. Submit it again.' });

    expect((await migrate(db)).applied).toContain('20261125120000_video_inputs_and_holds');
    const rows = Object.fromEntries((await db.prisma.videoTask.findMany()).map((r) => [r.id, r]));
    expect(rows.video_inline.params).toEqual({ ...params, imageData: { mediaType: 'image/png', bytes: image.length, sha256: sha256(image) } });
    expect(rows.video_https.params).toEqual({ ...params, imageUrl: 'https://example.com/a.png' });
    expect(rows.video_refused.error).toEqual({ code: 'upstream_error', message: 'The upstream refused the task when it was polled; the charge was refunded. Submit it again.' });
    expect(rows.video_submit.error).toEqual({ code: 'submission_failed', message: 'The upstream refused the submission; nothing was charged.' });
    expect(rows.video_failed.error).toEqual({ code: 'video_generation_failed', message: 'The upstream could not generate the video; the charge was refunded.' });
    expect(rows.video_blocked.error).toEqual({ code: 'content_moderation', message: 'The upstream declined to generate this video under its content policy; the charge was refunded.' });
    expect(rows.video_timeout.error).toEqual({ code: 'generation_timeout', message: 'The upstream did not finish the video in time; the charge was refunded. Submit it again.' });
    expect(JSON.stringify(Object.values(rows).map((r) => r.error))).not.toMatch(/internal\.corp|\*\*\*\*/);
  });
});
