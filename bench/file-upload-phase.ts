import { execFileSync } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync, openSync, closeSync, writeSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { onCleanup } from './cleanup';
import { against, type BenchContext } from './context';
import type { Phase } from './phases';
import { readMemory } from './proc-stats';
import { progress } from './progress';
import { round } from './stats';
import { fmt } from './table';

/** The largest `user_data` file the spec allows. */
const UPLOAD_BYTES = Number(process.env.BENCH_UPLOAD_MB ?? 512) * 1024 * 1024;
const RSS_GROWTH_LIMIT_MB = 64;

/**
 * `file_upload`: one 512 MB `user_data` upload through `POST /v1/files`,
 * streamed from disk as multipart, while the gateway's RSS is sampled every
 * 20 ms. The upload must not grow the gateway's memory by more than 64 MB
 * (the bytes go to storage as they arrive), and its throughput is shown
 * beside a plain `cp` of the same file on the same disk: the floor of
 * moving those bytes once.
 */
export const fileUpload: Phase = {
  id: 'file_upload',
  async run(ctx) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-upload-'));
    onCleanup(() => rmSync(dir, { recursive: true, force: true }));
    const source = path.join(dir, 'upload.dat');
    progress(`file_upload: writing a ${fmt.mb(UPLOAD_BYTES)} file`);
    writeRandomFile(source, UPLOAD_BYTES);

    const cpStart = performance.now();
    execFileSync('cp', [source, path.join(dir, 'copy.dat')]);
    const cpSeconds = (performance.now() - cpStart) / 1000;
    rmSync(path.join(dir, 'copy.dat'));

    const pid = ctx.gateway.handle.pid;
    const before = readMemory(pid).rssBytes;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, readMemory(pid).rssBytes)), 20);
    progress('file_upload: uploading');
    const started = performance.now();
    let answer: { status: number; body: string };
    try {
      answer = await uploadMultipart(ctx, source);
    } finally {
      clearInterval(sampler);
    }
    const seconds = (performance.now() - started) / 1000;
    peak = Math.max(peak, readMemory(pid).rssBytes);
    const growthMb = (peak - before) / 1048576;
    if (answer.status !== 201) ctx.report.fail(`file_upload: the upload answered ${answer.status}: ${answer.body.slice(0, 300)}`);
    else await deleteUploaded(ctx, (JSON.parse(answer.body) as { id: string }).id);

    const mbps = (bytes: number, s: number) => bytes / 1048576 / s;
    const { report } = ctx;
    report.section(`File upload (${fmt.mb(UPLOAD_BYTES)}, local storage)`);
    report.row('throughput: gateway upload / plain cp', `${mbps(UPLOAD_BYTES, seconds).toFixed(0)} MB/s`, `${mbps(UPLOAD_BYTES, cpSeconds).toFixed(0)} MB/s`);
    report.row('gateway RSS growth during the upload', `${growthMb.toFixed(1)} MB`, '', '', `< ${RSS_GROWTH_LIMIT_MB} MB`, against(growthMb, RSS_GROWTH_LIMIT_MB, true));
    report.json[this.id] = {
      bytes: UPLOAD_BYTES, upload_seconds: round(seconds, 2), cp_seconds: round(cpSeconds, 2),
      upload_mb_per_s: round(mbps(UPLOAD_BYTES, seconds), 1), cp_mb_per_s: round(mbps(UPLOAD_BYTES, cpSeconds), 1), rss_growth_mb: round(growthMb, 1),
    };
  },
};

/** Random bytes (nothing compresses or deduplicates them), written in 8 MB pieces. */
function writeRandomFile(file: string, bytes: number): void {
  writeFileSync(file, '');
  const fd = openSync(file, 'a');
  const piece = randomBytes(8 * 1024 * 1024);
  for (let written = 0; written < bytes; written += piece.length) writeSync(fd, piece, 0, Math.min(piece.length, bytes - written));
  closeSync(fd);
}

/** A multipart body streamed from disk with Content-Length, as the openai SDK sends it. */
function uploadMultipart(ctx: BenchContext, file: string): Promise<{ status: number; body: string }> {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nuser_data\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="upload.dat"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const size = statSync(file).size;
  const url = new URL('/v1/files', ctx.gateway.url);
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: { ...authorization(ctx), 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + size + tail.length },
    }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.write(head);
    const stream = createReadStream(file, { highWaterMark: 1024 * 1024 });
    stream.on('error', reject);
    stream.on('end', () => req.end(tail));
    stream.pipe(req, { end: false });
  });
}

async function deleteUploaded(ctx: BenchContext, id: string): Promise<void> {
  await new Promise<void>((resolve) => {
    const req = http.request(new URL(`/v1/files/${id}`, ctx.gateway.url), { method: 'DELETE', headers: authorization(ctx) }, (res) => {
      res.resume();
      res.on('end', () => resolve());
    });
    req.on('error', () => resolve());
    req.end();
  });
}

function authorization(ctx: BenchContext): Record<string, string> {
  return { authorization: ctx.viaGateway.headers.authorization ?? '' };
}
