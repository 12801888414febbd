import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import OpenAI, { toFile } from 'openai';
import { loadGatewayConfig } from '../../src/config/load-config';
import { spawnGateway, writeConfigFile, type GatewayProcess } from '../support/gateway-process';
import { pdfBytes } from '../support/file-uploads';
import { ADMIN_TOKEN } from '../support/test-gateway';

/** Under the 64 MB a call may name, and more than half the budget below: two such calls never fit at once. */
const FILE_BYTES = 48 * 1024 * 1024;
const BUDGET_BYTES = 64 * 1024 * 1024;

/** What the fake upstream saw of one request body. */
interface ReceivedBody {
  chunked: boolean;
  bytes: number;
  /** The SHA-256 of the bytes the `file_data` data URL carries. */
  fileSha256: string | null;
}

const UPSTREAM_ANSWER = {
  id: 'resp_upstream', object: 'response', status: 'completed', model: 'gpt-4.1-mini',
  output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'A long report.', annotations: [] }] }],
  usage: { input_tokens: 1000, output_tokens: 4, total_tokens: 1004 },
};

/** The base64 a `data:` URL inside a JSON body carries, decoded and hashed. */
function fileDataSha256(body: Buffer): string | null {
  const start = body.indexOf(';base64,');
  if (start < 0) return null;
  const end = body.indexOf('"', start);
  return createHash('sha256').update(Buffer.from(body.subarray(start + 8, end).toString('latin1'), 'base64')).digest('hex');
}

/** Peak resident memory of a process (Linux), and its reset to the current resident size. */
const peakRssBytes = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
const rssBytes = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
const resetPeakRss = (pid: number) => writeFileSync(`/proc/${pid}/clear_refs`, '5');

const describeOnLinux = existsSync('/proc/self/clear_refs') ? describe : describe.skip;

/**
 * A file named by id in a Responses call is streamed into the upstream
 * body (chunked, base64 as it is read), never held whole: the gateway
 * process's peak memory grows by less than the file's size, a retry reads
 * it again rather than keeping a copy, and calls beyond the instance's file
 * byte budget, native or bridged, are refused with 503
 * `file_dereference_busy` before anything is read.
 */
describeOnLinux('files by id stream into the upstream body within a byte budget', () => {
  let upstream: Server;
  let gateway: GatewayProcess;
  let dataDir: string;
  let client: OpenAI;
  let fileId: string;
  const file = pdfBytes(FILE_BYTES);
  const fileSha256 = createHash('sha256').update(file).digest('hex');
  const received: ReceivedBody[] = [];
  /** Statuses the upstream answers with, in turn; 200 once they run out. */
  let statuses: number[] = [];
  /** While set, the upstream holds its answers until it resolves. */
  let gate: Promise<void> | undefined;
  /** Told of each body as soon as it was read whole. */
  let onBody: (() => void) | undefined;

  beforeAll(async () => {
    upstream = createServer(async (req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      received.push({ chunked: req.headers['transfer-encoding'] === 'chunked', bytes: body.length, fileSha256: fileDataSha256(body) });
      onBody?.();
      await gate;
      const status = statuses.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(status === 200 ? UPSTREAM_ANSWER : { error: { message: 'busy', type: 'server_error', code: null } }));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;

    const base = loadGatewayConfig({}).config;
    const config = { ...base, providers: { ...base.providers, openai: { type: 'openai' as const, base_url: `${upstreamUrl}/v1`, api_key_env: 'OPENAI_API_KEY' } } };
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-file-streaming-'));
    gateway = await spawnGateway({
      GATEWAY_DATA_DIR: dataDir, GATEWAY_CONFIG: writeConfigFile(config), GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, OPENAI_API_KEY: 'test-upstream-key',
      GATEWAY_FILE_DEREFERENCE_MAX_BYTES: String(BUDGET_BYTES),
    }, 60_000);
    const keyRes = await fetch(`${gateway.url}/api/admin/keys`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'files' }) });
    client = new OpenAI({ apiKey: ((await keyRes.json()) as { key: string }).key, baseURL: `${gateway.url}/v1`, maxRetries: 0, timeout: 60_000 });
    fileId = (await client.files.create({ file: await toFile(file, 'report.pdf', { type: 'application/pdf' }), purpose: 'user_data' })).id;
  }, 120_000);

  afterAll(async () => {
    await gateway?.kill('SIGTERM');
    await new Promise((resolve) => upstream?.close(resolve));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const summarise = (model = 'gpt-4.1-mini') =>
    client.responses.create({ model, input: [{ role: 'user', content: [{ type: 'input_text', text: 'Summarise the report.' }, { type: 'input_file', file_id: fileId }] }] });

  it('streams the file chunked into each attempt, retries by reading it again, and peaks at less than one copy of it', async () => {
    const pid = gateway.child.pid!;
    await summarise(); // warms the code paths up
    received.length = 0;
    statuses = [503];
    resetPeakRss(pid);
    const before = rssBytes(pid);

    const answer = await summarise();
    const growth = peakRssBytes(pid) - before;

    expect(answer.output_text).toBe('A long report.');
    expect(received).toHaveLength(2); // the 503, then the retry
    for (const body of received) {
      expect(body.chunked).toBe(true);
      expect(body.fileSha256).toBe(fileSha256);
      expect(body.bytes).toBeGreaterThan((FILE_BYTES * 4) / 3);
    }
    // Held whole, the file alone would be 48 MB, its base64 64 MB, the JSON body another 64 MB or more.
    expect(growth).toBeLessThan(FILE_BYTES / 2);
  }, 120_000);

  it('refuses a call whose files would pass the byte budget with 503 file_dereference_busy and Retry-After, and takes it once the first is done', async () => {
    received.length = 0;
    statuses = [];
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    const firstBodyIn = new Promise<void>((resolve) => (onBody = resolve));
    const first = summarise();
    await firstBodyIn;

    // A native route and the bridge (Claude, on the simulator) share the budget.
    for (const model of ['gpt-4.1-mini', 'claude-sonnet-4-5']) {
      const refused = await summarise(model).then(() => undefined, (err: unknown) => err);
      expect(refused).toBeInstanceOf(OpenAI.APIError);
      const apiError = refused as InstanceType<typeof OpenAI.APIError>;
      expect([apiError.status, apiError.code]).toEqual([503, 'file_dereference_busy']);
      expect(apiError.message).toMatch(/retry in \d+ seconds/);
      expect(Number(apiError.headers?.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(received).toHaveLength(1); // the refused calls sent nothing

    onBody = undefined;
    gate = undefined;
    open();
    expect((await first).output_text).toBe('A long report.');
    expect((await summarise()).output_text).toBe('A long report.');
    expect(received).toHaveLength(2);
  }, 120_000);
});
