import { CreateBucketCommand, HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI, { toFile } from 'openai';
import S3rver from 's3rver';
import { eventually } from '../support/eventually';
import { localStoredFiles, patternBytes, PNG_1X1, trickleUpload } from '../support/file-uploads';
import { startTestGateway, type TestGateway } from '../support/test-gateway';

const BUCKET = 'gateway-files-test';
const LIMIT = 16 * 1024 * 1024;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** The same Files API with GATEWAY_FILE_STORAGE=s3, against an S3 server in this process (s3rver), on PGlite. */
describe('files on S3 storage', () => {
  let s3dir: string;
  let s3server: S3rver;
  let s3: S3Client;
  let t: TestGateway;
  let client: OpenAI;
  let key: string;
  /** The requests s3rver received, as `METHOD path?query`. */
  const s3requests: string[] = [];

  beforeAll(async () => {
    s3dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-s3rver-'));
    s3server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3dir });
    // s3rver is a Koa app: a first middleware sees every request (s3rver itself answers AbortMultipartUpload with 405, so the test checks it was asked).
    (s3server as unknown as { middleware: Array<(ctx: { method: string; url: string }, next: () => Promise<void>) => Promise<void>> }).middleware.unshift(async (ctx, next) => {
      s3requests.push(`${ctx.method} ${ctx.url}`);
      await next();
    });
    const { port } = await s3server.run();
    const endpoint = `http://127.0.0.1:${port}`;
    s3 = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
    t = await startTestGateway({
      database: 'pglite',
      env: {
        GATEWAY_FILE_STORAGE: 's3', GATEWAY_S3_BUCKET: BUCKET, GATEWAY_S3_ENDPOINT: endpoint, GATEWAY_S3_REGION: 'us-east-1', GATEWAY_S3_FORCE_PATH_STYLE: 'true',
        AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', GATEWAY_FILE_MAX_USER_DATA_BYTES: String(LIMIT), GATEWAY_FILE_SWEEP_MS: '0',
      },
    });
    key = await t.createKey({ name: 's3 files' });
    client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    s3?.destroy();
    await s3server?.close();
    rmSync(s3dir, { recursive: true, force: true });
  });

  const objects = async () => ((await s3.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? []).map((o) => o.Key!);
  const rows = () => t.gateway.db.prisma.file.findMany();

  it('round-trips a 12 MB file (a multipart upload) byte-exact, with ranges, and delete removes the object', async () => {
    const data = patternBytes(12 * 1024 * 1024 + 7);
    const created = await client.files.create({ file: await toFile(data, 'large.dat'), purpose: 'user_data' });
    expect(created).toMatchObject({ object: 'file', bytes: data.length, filename: 'large.dat', purpose: 'user_data', status: 'processed' });
    expect(await objects()).toEqual([`files/${created.id}`]);
    expect((await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: `files/${created.id}` }))).ContentLength).toBe(data.length);
    // Nothing went to the local folder.
    expect(localStoredFiles(t.dataDir).objects).toEqual([]);
    expect((await rows())[0]).toMatchObject({ sha256: sha256(data), storageKey: created.id });

    expect((await client.files.list()).data.map((f) => f.id)).toEqual([created.id]);
    const download = Buffer.from(await (await client.files.content(created.id)).arrayBuffer());
    expect(download.length).toBe(data.length);
    expect(sha256(download)).toBe(sha256(data));

    // A range across the boundary of the first 8 MiB part.
    const start = 8 * 1024 * 1024 - 100;
    const part = await fetch(`${t.baseURL}/files/${created.id}/content`, { headers: { authorization: `Bearer ${key}`, range: `bytes=${start}-${start + 199}` } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes ${start}-${start + 199}/${data.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(data.subarray(start, start + 200));

    const image = await client.files.create({ file: await toFile(PNG_1X1, 'pixel.png'), purpose: 'vision' });
    expect(Buffer.from(await (await client.files.content(image.id)).arrayBuffer())).toEqual(PNG_1X1);

    expect(await client.files.delete(created.id)).toEqual({ id: created.id, object: 'file', deleted: true });
    expect(await objects()).toEqual([`files/${image.id}`]);
    expect((await client.files.retrieve(created.id).catch((err) => err)).status).toBe(404);
    await client.files.delete(image.id);
    expect(await objects()).toEqual([]);
    expect(await rows()).toEqual([]);
  }, 60_000);

  /** Object keys whose multipart upload was started, and those S3 was asked to abort, among s3rver's requests from `from` on. */
  function multipartUploads(from: number): { started: string[]; aborted: string[]; completed: string[] } {
    const keyOf = (pattern: RegExp) => s3requests.slice(from).flatMap((r) => pattern.exec(r)?.[1] ?? []);
    return {
      started: keyOf(/^POST \/[^/]+\/(\S+)\?uploads/),
      aborted: keyOf(/^DELETE \/[^/]+\/(\S+)\?uploadId=/),
      completed: keyOf(/^POST \/[^/]+\/(\S+)\?uploadId=/),
    };
  }

  it('an upload over the limit leaves no object and no row: with purpose first, its multipart upload is aborted, never completed', async () => {
    const from = s3requests.length;
    // Key order decides the part order the SDK sends: purpose first, so the 16 MB limit applies while the bytes stream.
    const err = await client.files.create({ purpose: 'user_data', file: await toFile(patternBytes(LIMIT + 1), 'too-big.dat') }).catch((e) => e);
    expect([err.status, err.code]).toEqual([413, 'file_too_large']);
    expect(await objects()).toEqual([]);
    expect(await rows()).toEqual([]);
    const { started, aborted, completed } = multipartUploads(from);
    expect(started).toHaveLength(1);
    expect(aborted).toEqual(started);
    expect(completed).toEqual([]);
  }, 60_000);

  it('an upload whose purpose comes after the file is streamed under the largest limit, then refused and removed', async () => {
    const err = await client.files.create({ file: await toFile(patternBytes(LIMIT + 1), 'late-purpose.dat'), purpose: 'user_data' }).catch((e) => e);
    expect([err.status, err.code]).toEqual([413, 'file_too_large']);
    expect(await objects()).toEqual([]);
    expect(await rows()).toEqual([]);
  }, 60_000);

  it('a client gone mid-upload leaves no object and no row, and its multipart upload is aborted', async () => {
    const from = s3requests.length;
    const cut = trickleUpload(t.url, key, { purpose: 'user_data', filename: 'cut.dat', totalFileBytes: LIMIT, chunkBytes: 1024 * 1024, pauseMs: 20, abortAfterBytes: 10 * 1024 * 1024 });
    await eventually(async () => ((await rows()).some((r) => r.status === 'uploading') ? true : undefined), 'the upload to begin');
    expect(await cut).toBe('aborted');
    await eventually(async () => ((await rows()).length === 0 ? true : undefined), 'the row to go');
    expect(await objects()).toEqual([]);
    const { started, aborted, completed } = multipartUploads(from);
    expect(started).toHaveLength(1);
    expect(aborted).toEqual(started);
    expect(completed).toEqual([]);
  }, 60_000);

  it('an expired file is swept from the bucket', async () => {
    const file = await client.files.create({ file: await toFile(Buffer.from('short-lived'), 'short.txt'), purpose: 'user_data' });
    await t.gateway.db.prisma.file.update({ where: { id: file.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await client.files.content(file.id).catch((e) => e)).status).toBe(404);
    expect(await t.gateway.services.files.sweep()).toEqual({ removed: 1, failed: 0, more: false });
    expect(await objects()).toEqual([]);
    expect(await rows()).toEqual([]);
  });
});
