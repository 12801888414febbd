import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ByteLimitExceededError, StoredObjectMissingError } from './file-storage';
import { LocalFileStorage } from './local-file-storage';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A stream of `total` bytes in 64 KiB chunks, byte i being i % 251. */
function counting(total: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      const n = Math.min(65536, total - sent);
      this.push(Buffer.from(Array.from({ length: n }, (_, i) => (sent + i) % 251)));
      sent += n;
    },
  });
}

describe('LocalFileStorage', () => {
  let dir: string;
  let storage: LocalFileStorage;
  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-files-'));
    storage = await LocalFileStorage.open(dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const visible = () => readdirSync(dir).filter((name) => name !== '.partial');
  const partials = () => readdirSync(path.join(dir, '.partial'));

  it('stores a stream whole and reads it back, or a range of it', async () => {
    expect(await storage.put(counting(300_000), 'file-a', { maxBytes: 300_000 })).toEqual({ bytes: 300_000 });
    expect(await storage.exists('file-a')).toBe(true);
    const all = await readAll(await storage.get('file-a'));
    expect(all).toHaveLength(300_000);
    expect(all[299_999]).toBe(299_999 % 251);
    expect(await readAll(await storage.get('file-a', { start: 70_000, end: 70_009 }))).toEqual(all.subarray(70_000, 70_010));
    expect(partials()).toEqual([]);
  });

  it('fails a put past its limit and keeps nothing of it', async () => {
    await expect(storage.put(counting(200_000), 'file-big', { maxBytes: 100_000 })).rejects.toBeInstanceOf(ByteLimitExceededError);
    expect(await storage.exists('file-big')).toBe(false);
    expect(visible()).toEqual([]);
    expect(partials()).toEqual([]);
  });

  it('keeps nothing of an aborted put, and never shows a half-written file under its key', async () => {
    const abort = new AbortController();
    const body = new Readable({ read() {} });
    const put = storage.put(body, 'file-cut', { maxBytes: 1_000_000, signal: abort.signal });
    body.push(Buffer.alloc(50_000, 1));
    await new Promise((r) => setTimeout(r, 50));
    expect(await storage.exists('file-cut')).toBe(false);
    expect(partials()).toEqual(['file-cut']);
    abort.abort();
    await expect(put).rejects.toThrow();
    expect(visible()).toEqual([]);
    expect(partials()).toEqual([]);
  });

  it('deletes (twice without complaint), and a missing object is StoredObjectMissingError', async () => {
    await storage.put(Readable.from([Buffer.from('hello')]), 'file-d', { maxBytes: 10 });
    await storage.delete('file-d');
    await storage.delete('file-d');
    expect(await storage.exists('file-d')).toBe(false);
    await expect(storage.get('file-d')).rejects.toBeInstanceOf(StoredObjectMissingError);
  });

  it('refuses keys that could leave its folder', async () => {
    await expect(storage.get('../etc/passwd')).rejects.toThrow(/unsafe storage key/);
    await expect(storage.delete('.partial')).rejects.toThrow(/unsafe storage key/);
  });
});
