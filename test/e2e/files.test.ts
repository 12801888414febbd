import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync, createReadStream } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI, { toFile } from 'openai';
import { eventually } from '../support/eventually';
import { localStoredFiles, multipartBody, patternBytes, pdfBytes, PNG_1X1, trickleUpload } from '../support/file-uploads';
import { startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

const USER_DATA_LIMIT = 256 * 1024;
const VISION_LIMIT = 64 * 1024;
const DAY = 24 * 3600;

describe.each(TEST_DATABASES)('files with the openai SDK (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  let otherKey: string;
  let client: OpenAI;
  let other: OpenAI;
  let scratch: string;

  beforeAll(async () => {
    t = await startTestGateway({
      database,
      env: { GATEWAY_FILE_MAX_USER_DATA_BYTES: String(USER_DATA_LIMIT), GATEWAY_FILE_MAX_VISION_BYTES: String(VISION_LIMIT), GATEWAY_FILE_SWEEP_MS: '200' },
    });
    key = await t.createKey({ name: 'files' });
    otherKey = await t.createKey({ name: 'someone else' });
    client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
    other = new OpenAI({ apiKey: otherKey, baseURL: t.baseURL, maxRetries: 0 });
    scratch = mkdtempSync(path.join(os.tmpdir(), 'gateway-files-test-'));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const rows = () => t.gateway.db.prisma.file.findMany();
  const stored = () => localStoredFiles(t.dataDir);
  const auth = (k = key) => ({ authorization: `Bearer ${k}` });
  async function postForm(form: FormData | { body: Buffer; contentType: string }, k = key): Promise<{ status: number; body: any }> {
    const init = form instanceof FormData ? { body: form } : { body: form.body, headers: { 'content-type': form.contentType } };
    const res = await fetch(`${t.baseURL}/files`, { method: 'POST', ...init, headers: { ...auth(k), ...(init.headers ?? {}) } });
    return { status: res.status, body: await res.json() };
  }
  /** Nothing of a refused upload is left: no row, no object, no partial bytes. */
  async function expectNothingLeftBesides(ids: string[]) {
    expect((await rows()).map((r) => r.id).sort()).toEqual([...ids].sort());
    expect(stored().objects.sort()).toEqual([...ids].sort());
    expect(stored().partial).toEqual([]);
  }
  async function apiError(promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
    try {
      await promise;
    } catch (err) {
      if (err instanceof OpenAI.APIError) return err;
      throw err;
    }
    throw new Error('expected the call to fail');
  }

  describe('round trip', () => {
    const pdf = pdfBytes(40_000);
    let pdfId: string;
    let pngId: string;

    it('uploads a PDF streamed from disk and a PNG: 201 with the OpenAI file object, type and digest from the bytes', async () => {
      const file = path.join(scratch, 'report.pdf');
      writeFileSync(file, pdf);
      const before = Math.floor(Date.now() / 1000);
      const { data: created, response } = await client.files.create({ file: createReadStream(file), purpose: 'user_data' }).withResponse();
      expect(response.status).toBe(201);
      expect(created).toEqual({
        id: expect.stringMatching(/^file-[0-9a-f]{32}$/), object: 'file', bytes: pdf.length, filename: 'report.pdf', purpose: 'user_data',
        status: 'processed', created_at: expect.any(Number), expires_at: created.created_at + 30 * DAY, status_details: null,
      });
      expect(created.created_at).toBeGreaterThanOrEqual(before - 1);
      pdfId = created.id;

      const image = await client.files.create({ file: await toFile(PNG_1X1, 'pixel.png'), purpose: 'vision' });
      expect(image).toMatchObject({ purpose: 'vision', bytes: PNG_1X1.length, filename: 'pixel.png' });
      pngId = image.id;

      const byId = new Map((await rows()).map((r) => [r.id, r]));
      expect(byId.get(pdfId)).toMatchObject({ mimeType: 'application/pdf', sha256: createHash('sha256').update(pdf).digest('hex'), status: 'processed', bytes: BigInt(pdf.length) });
      expect(byId.get(pngId)).toMatchObject({ mimeType: 'image/png', sha256: createHash('sha256').update(PNG_1X1).digest('hex') });
      expect(stored().objects.sort()).toEqual([pdfId, pngId].sort());
    });

    it('serves the Responses capability its contract: findOwned for the key only, readContent the exact bytes', async () => {
      const principal = (await t.gateway.services.keys.authenticate(key))!;
      const stranger = (await t.gateway.services.keys.authenticate(otherKey))!;
      const file = await t.gateway.services.files.findOwned(principal, pdfId);
      expect(file).toMatchObject({ id: pdfId, filename: 'report.pdf', purpose: 'user_data', bytes: pdf.length, mimeType: 'application/pdf', createdAt: expect.any(Date), expiresAt: expect.any(Date) });
      expect(await t.gateway.services.files.readContent(file)).toEqual(pdf);
      for (const [who, id] of [[stranger, pdfId], [principal, 'file-missing'], [principal, 'bad\u0000id']] as const) {
        await expect(t.gateway.services.files.findOwned(who, id)).rejects.toMatchObject({ name: 'GatewayError', code: 'file_not_found', status: 404 });
      }
    });

    it('retrieves the metadata the upload answered', async () => {
      const meta = await client.files.retrieve(pdfId);
      expect(meta).toMatchObject({ id: pdfId, object: 'file', bytes: pdf.length, filename: 'report.pdf', purpose: 'user_data', status: 'processed' });
    });

    it('downloads the exact bytes, with the detected type, length and a safe attachment name', async () => {
      const res = await client.files.content(pdfId);
      expect(Buffer.from(await res.arrayBuffer())).toEqual(pdf);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.headers.get('content-length')).toBe(String(pdf.length));
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
      expect(res.headers.get('accept-ranges')).toBe('bytes');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const png = await client.files.content(pngId);
      expect(Buffer.from(await png.arrayBuffer())).toEqual(PNG_1X1);
      expect(png.headers.get('content-type')).toBe('image/png');
    });

    it('answers a single byte range with 206 and exactly those bytes; a range past the end with 416', async () => {
      const part = await fetch(`${t.baseURL}/files/${pdfId}/content`, { headers: { ...auth(), range: 'bytes=100-1099' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 100-1099/${pdf.length}`);
      expect(part.headers.get('content-length')).toBe('1000');
      expect(Buffer.from(await part.arrayBuffer())).toEqual(pdf.subarray(100, 1100));

      const suffix = await fetch(`${t.baseURL}/files/${pdfId}/content`, { headers: { ...auth(), range: 'bytes=-10' } });
      expect(suffix.status).toBe(206);
      expect(Buffer.from(await suffix.arrayBuffer())).toEqual(pdf.subarray(pdf.length - 10));

      const stale = await fetch(`${t.baseURL}/files/${pdfId}/content`, { headers: { ...auth(), range: 'bytes=0-9', 'if-range': '"not-the-etag"' } });
      expect(stale.status).toBe(200);
      expect((await stale.arrayBuffer()).byteLength).toBe(pdf.length);

      const head = await fetch(`${t.baseURL}/files/${pdfId}/content`, { method: 'HEAD', headers: auth() });
      expect([head.status, head.headers.get('content-length'), (await head.arrayBuffer()).byteLength]).toEqual([200, String(pdf.length), 0]);

      const past = await fetch(`${t.baseURL}/files/${pdfId}/content`, { headers: { ...auth(), range: `bytes=${pdf.length}-` } });
      expect(past.status).toBe(416);
      expect(past.headers.get('content-range')).toBe(`bytes */${pdf.length}`);
      expect(((await past.json()) as any).error.code).toBe('range_not_satisfiable');
    });

    it("is invisible to another key on every route (404 file_not_found), and another key's delete changes nothing", async () => {
      for (const call of [other.files.retrieve(pdfId), other.files.content(pdfId), other.files.delete(pdfId)]) {
        const err = await apiError(call);
        expect(err.status).toBe(404);
        expect(err.code).toBe('file_not_found');
      }
      const raw = await fetch(`${t.baseURL}/files/${pdfId}/content`, { headers: { ...auth(otherKey), range: 'bytes=0-1' } });
      expect(raw.status).toBe(404);
      expect((await other.files.list()).data).toEqual([]);
      expect((await client.files.retrieve(pdfId)).id).toBe(pdfId);
    });

    it('deletes: the OpenAI answer, the bytes and the row are gone, and every route answers 404 after', async () => {
      const deleted = await client.files.delete(pdfId);
      expect(deleted).toEqual({ id: pdfId, object: 'file', deleted: true });
      expect(stored().objects).toEqual([pngId]);
      expect((await rows()).map((r) => r.id)).toEqual([pngId]);
      for (const call of [client.files.retrieve(pdfId), client.files.content(pdfId), client.files.delete(pdfId)]) {
        const err = await apiError(call);
        expect(err.status).toBe(404);
        expect(err.code).toBe('file_not_found');
      }
      await client.files.delete(pngId);
      await expectNothingLeftBesides([]);
    });
  });

  it('lists newest first by default, pages with limit and after (the SDK auto-paginates), filters by purpose, and orders asc', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await client.files.create({ file: await toFile(Buffer.from(`doc ${i}`), `doc-${i}.txt`), purpose: 'user_data' })).id);
    ids.push((await client.files.create({ file: await toFile(PNG_1X1, 'img.png'), purpose: 'vision' })).id);
    const newestFirst = [...ids].reverse();

    const all = await client.files.list();
    expect(all.data.map((f) => f.id)).toEqual(newestFirst);

    const first = await fetch(`${t.baseURL}/files?limit=1`, { headers: auth() }).then((r) => r.json() as any);
    expect(first).toMatchObject({ object: 'list', first_id: newestFirst[0], last_id: newestFirst[0], has_more: true });
    expect(first.data).toHaveLength(1);
    const second = await fetch(`${t.baseURL}/files?limit=2&after=${first.last_id}`, { headers: auth() }).then((r) => r.json() as any);
    expect(second.data.map((f: any) => f.id)).toEqual(newestFirst.slice(1, 3));
    expect(second.has_more).toBe(true);

    const paged: string[] = [];
    for await (const file of client.files.list({ limit: 1 })) paged.push(file.id);
    expect(paged).toEqual(newestFirst);

    expect((await client.files.list({ purpose: 'vision' })).data.map((f) => f.id)).toEqual([ids[3]]);
    expect((await client.files.list({ purpose: 'batch' })).data).toEqual([]);
    expect((await client.files.list({ order: 'asc' })).data.map((f) => f.id)).toEqual(ids);
    const ascAfter = await client.files.list({ order: 'asc', after: ids[1] });
    expect(ascAfter.data.map((f) => f.id)).toEqual(ids.slice(2));
    // A cursor whose file is gone since still works (its time is in its id).
    await client.files.delete(ids[2]);
    expect((await client.files.list({ after: ids[2] })).data.map((f) => f.id)).toEqual([ids[1], ids[0]]);

    for (const [query, param] of [['limit=0', 'limit'], ['limit=10001', 'limit'], ['limit=abc', 'limit'], ['order=newest', 'order'], ['after=file-nope', 'after'], ['after=%00', 'after']]) {
      const res = await fetch(`${t.baseURL}/files?${query}`, { headers: auth() });
      expect(res.status).toBe(400);
      expect(((await res.json()) as any).error).toMatchObject({ code: 'invalid_parameter', param });
    }
    for (const id of [ids[0], ids[1], ids[3]]) await client.files.delete(id);
    await expectNothingLeftBesides([]);
  });

  describe('refusals, each leaving nothing behind', () => {
    afterEach(() => expectNothingLeftBesides([]));

    it('without purpose or without file: 400 missing_required_parameter naming the field', async () => {
      const noPurpose = new FormData();
      noPurpose.append('file', new Blob([Buffer.from('hello')]), 'hello.txt');
      expect(await postForm(noPurpose)).toMatchObject({ status: 400, body: { error: { code: 'missing_required_parameter', param: 'purpose' } } });

      const noFile = new FormData();
      noFile.append('purpose', 'user_data');
      expect(await postForm(noFile)).toMatchObject({ status: 400, body: { error: { code: 'missing_required_parameter', param: 'file' } } });

      const empty = new FormData();
      empty.append('purpose', 'user_data');
      empty.append('file', new Blob([]), 'empty.txt');
      expect(await postForm(empty)).toMatchObject({ status: 400, body: { error: { code: 'missing_required_parameter', param: 'file' } } });

      const notMultipart = await fetch(`${t.baseURL}/files`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body: '{"purpose":"user_data"}' });
      expect(notMultipart.status).toBe(400);
      expect(((await notMultipart.json()) as any).error.code).toBe('invalid_multipart');
    });

    it.each(['batch', 'fine-tune', 'assistants', 'evals'])('purpose %s: 400 purpose_not_supported', async (purpose) => {
      const err = await apiError(client.files.create({ file: await toFile(Buffer.from('{"a":1}\n'), 'data.jsonl'), purpose: purpose as 'batch' }));
      expect(err.status).toBe(400);
      expect(err.code).toBe('purpose_not_supported');
      expect(err.param).toBe('purpose');
    });

    it('programs by name or by first bytes: 400 executable_file_not_allowed, for every purpose', async () => {
      for (const [name, data, purpose] of [
        ['evil.exe', Buffer.from('harmless text'), 'user_data'],
        ['installer.MSI.', Buffer.from('text'), 'user_data'],
        ['notes.txt', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(5000, 0x90)]), 'user_data'],
        ['photo.png', Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.alloc(100)]), 'vision'],
        ['tool', Buffer.concat([Buffer.from([0xcf, 0xfa, 0xed, 0xfe]), Buffer.alloc(100)]), 'user_data'],
      ] as const) {
        const err = await apiError(client.files.create({ file: await toFile(data, name), purpose }));
        expect([name, err.status, err.code]).toEqual([name, 400, 'executable_file_not_allowed']);
      }
    });

    it('vision files that are no image (whatever their name): 400 unsupported_file_type', async () => {
      for (const [name, data] of [['notes.txt', Buffer.from('plain text')], ['fake.png', Buffer.from('not really a png at all')], ['report.pdf', pdfBytes(1000)]] as const) {
        const err = await apiError(client.files.create({ file: await toFile(data, name), purpose: 'vision' }));
        expect([name, err.status, err.code]).toEqual([name, 400, 'unsupported_file_type']);
      }
    });

    it('over the purpose limit: 413 file_too_large, through the SDK too', async () => {
      const err = await apiError(client.files.create({ file: await toFile(patternBytes(USER_DATA_LIMIT + 1), 'big.dat'), purpose: 'user_data' }));
      expect(err.status).toBe(413);
      expect(err.code).toBe('file_too_large');
      const image = Buffer.concat([PNG_1X1, Buffer.alloc(VISION_LIMIT)]);
      const vision = await apiError(client.files.create({ file: await toFile(image, 'huge.png'), purpose: 'vision' }));
      expect([vision.status, vision.code]).toEqual([413, 'file_too_large']);
    });

    it('answers 413 as soon as the limit is passed, while the client is still sending, and keeps serving', async () => {
      const answer = await trickleUpload(t.url, key, { purpose: 'user_data', filename: 'stream.dat', totalFileBytes: 40 * USER_DATA_LIMIT });
      expect(answer).not.toBe('aborted');
      const { status, body, sentWhenAnswered } = answer as Exclude<typeof answer, 'aborted'>;
      expect(status).toBe(413);
      expect(body.error.code).toBe('file_too_large');
      expect(sentWhenAnswered).toBeLessThan(8 * USER_DATA_LIMIT);
      expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    });

    it('a client gone mid-upload leaves no row and no bytes', async () => {
      const cut = trickleUpload(t.url, key, { purpose: 'user_data', filename: 'cut.dat', totalFileBytes: USER_DATA_LIMIT, chunkBytes: 16 * 1024, pauseMs: 50, abortAfterBytes: 160 * 1024 });
      // The upload was under way: its row and its partial bytes existed.
      const uploading = await eventually(async () => (await rows()).find((r) => r.status === 'uploading'), 'the upload to begin');
      await eventually(async () => (stored().partial.includes(uploading.id) ? true : undefined), 'partial bytes on disk');
      expect(stored().objects).toEqual([]);
      expect(await cut).toBe('aborted');
      await eventually(async () => ((await rows()).length === 0 && stored().partial.length === 0 ? true : undefined), () => `cleanup (rows: ${JSON.stringify(stored())})`);
      expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    });
  });

  describe('purpose after the file in the body (as curl users may send it)', () => {
    it('is taken, and the purpose is applied once known', async () => {
      const ok = await postForm(multipartBody([{ name: 'file', filename: 'late.txt', data: Buffer.from('late purpose') }, { name: 'purpose', value: 'user_data' }]));
      expect(ok).toMatchObject({ status: 201, body: { filename: 'late.txt', purpose: 'user_data', bytes: 12 } });
      const image = await postForm(multipartBody([{ name: 'file', filename: 'late.png', data: PNG_1X1 }, { name: 'purpose', value: 'vision' }]));
      expect(image).toMatchObject({ status: 201, body: { purpose: 'vision' } });
      await expectNothingLeftBesides([ok.body.id, image.body.id]);
      await client.files.delete(ok.body.id);
      await client.files.delete(image.body.id);
    });

    it.each([
      ['a non-image for vision', { filename: 'late.txt', data: Buffer.from('text') }, 'vision', 400, 'unsupported_file_type'],
      ['over the vision limit, under user_data', { filename: 'late.png', data: Buffer.concat([PNG_1X1, Buffer.alloc(VISION_LIMIT)]) }, 'vision', 413, 'file_too_large'],
      ['an unsupported purpose', { filename: 'late.jsonl', data: Buffer.from('{}') }, 'batch', 400, 'purpose_not_supported'],
    ])('refuses %s once the purpose arrives, and removes the stored bytes', async (_name, file, purpose, status, code) => {
      const answer = await postForm(multipartBody([{ name: 'file', ...file }, { name: 'purpose', value: purpose }]));
      expect(answer).toMatchObject({ status, body: { error: { code } } });
      await expectNothingLeftBesides([]);
    });
  });

  it('an expired file answers 404 before the sweep, and the sweep removes its bytes and row', async () => {
    const kept = await client.files.create({ file: await toFile(Buffer.from('kept'), 'kept.txt'), purpose: 'user_data' });
    const old = await client.files.create({ file: await toFile(Buffer.from('old'), 'old.txt'), purpose: 'user_data' });
    // Stop the sweeper from seeing it until the 404s are checked: claim it as if another sweeper held it.
    await t.gateway.db.prisma.file.update({ where: { id: old.id }, data: { expiresAt: new Date(Date.now() - 1000), sweepUntil: new Date(Date.now() + 60_000) } });
    for (const call of [client.files.retrieve(old.id), client.files.content(old.id), client.files.delete(old.id)]) {
      expect((await apiError(call)).code).toBe('file_not_found');
    }
    expect((await client.files.list()).data.map((f) => f.id)).toEqual([kept.id]);
    expect(stored().objects).toContain(old.id);
    // That claim runs out: the next sweep round takes the file.
    await t.gateway.db.prisma.file.update({ where: { id: old.id }, data: { sweepUntil: new Date(Date.now() - 1000) } });
    await eventually(async () => ((await rows()).every((r) => r.id !== old.id) ? true : undefined), 'the sweep to remove the expired file');
    expect(stored().objects).toEqual([kept.id]);
    await client.files.delete(kept.id);
  });

  it('takes a shorter expires_after, and refuses one out of bounds', async () => {
    const brief = await client.files.create({ file: await toFile(Buffer.from('brief'), 'brief.txt'), purpose: 'user_data', expires_after: { anchor: 'created_at', seconds: 3600 } });
    expect(brief.expires_at! - brief.created_at).toBe(3600);
    const tooShort = await apiError(client.files.create({ file: await toFile(Buffer.from('x'), 'x.txt'), purpose: 'user_data', expires_after: { anchor: 'created_at', seconds: 60 } }));
    expect([tooShort.status, tooShort.code, tooShort.param]).toEqual([400, 'invalid_parameter', 'expires_after[seconds]']);
    await client.files.delete(brief.id);
    await expectNothingLeftBesides([]);
  });

  it('answers 405 with Allow for methods a route does not take', async () => {
    for (const [method, url, allow] of [['PUT', '/files', 'GET, POST'], ['PATCH', '/files/file-0', 'GET, DELETE'], ['POST', '/files/file-0/content', 'GET']]) {
      const res = await fetch(`${t.baseURL}${url}`, { method, headers: auth() });
      expect([url, res.status, res.headers.get('allow')]).toEqual([url, 405, allow]);
    }
  });

  it('keeps a name with non-ASCII characters and punctuation exact through upload and download', async () => {
    const name = "Quartalsbericht (Q3) – résumé; l'été.md";
    const created = await client.files.create({ file: await toFile(Buffer.from('# hi'), name), purpose: 'user_data' });
    expect(created.filename).toBe(name);
    const res = await client.files.content(created.id);
    expect(res.headers.get('content-type')).toBe('text/markdown');
    const disposition = res.headers.get('content-disposition')!;
    expect(decodeURIComponent(/filename\*=UTF-8''(.*)$/.exec(disposition)![1])).toBe(name);
    await client.files.delete(created.id);
  });

  it('stores an upload retried with the same Idempotency-Key once, and refuses the key for another upload', async () => {
    const idem = `upload-${Date.now()}`;
    const upload = async (data: Buffer, name: string) =>
      client.files.create({ file: await toFile(data, name), purpose: 'user_data' }, { headers: { 'Idempotency-Key': idem } }).withResponse();
    const before = (await rows()).length;
    const first = await upload(Buffer.from('the same bytes'), 'same.txt');
    const retry = await upload(Buffer.from('the same bytes'), 'same.txt');
    expect(retry.data).toEqual(first.data);
    expect(retry.response.headers.get('idempotent-replayed')).toBe('true');
    expect(first.response.headers.get('idempotent-replayed')).toBeNull();
    // The retry's copy is not kept: one row (and one stored object) for the key.
    const live = (await rows()).filter((r) => r.deletedAt === null);
    expect(live.length - before).toBe(1);
    const reused = await upload(Buffer.from('other bytes'), 'same.txt').catch((e) => e);
    expect(reused.status).toBe(409);
    expect(reused.error.code).toBe('idempotency_key_reused');
    expect((await rows()).filter((r) => r.deletedAt === null).length - before).toBe(1);
    // Another key's upload under the same Idempotency-Key is its own.
    const theirs = await other.files.create({ file: await toFile(Buffer.from('the same bytes'), 'same.txt'), purpose: 'user_data' }, { headers: { 'Idempotency-Key': idem } });
    expect(theirs.id).not.toBe(first.data.id);
    await client.files.delete(first.data.id);
    await other.files.delete(theirs.id);
    await eventually(async () => ((await rows()).length === before ? true : undefined), 'the sweep removing the deleted uploads');
  });

});
