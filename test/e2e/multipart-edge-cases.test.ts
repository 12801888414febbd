import { request } from 'node:http';
import { readUntil } from '../support/eventually';
import { fastVideoConfig } from '../support/fast-video-config';
import { startTestGateway, type TestGateway } from '../support/test-gateway';

/** Multipart bodies that end badly: the gateway answers (or records) them and keeps running. */
describe('multipart uploads that break off', () => {
  let t: TestGateway;
  let key: string;
  beforeAll(async () => {
    t = await startTestGateway({ config: fastVideoConfig() });
    key = await t.createKey();
  });
  afterAll(() => t?.close());

  const boundary = 'XBOUNDARY';
  const head = [
    `--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nsora-2\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="prompt"\r\n\r\nhello\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="input_reference"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    'PNGDATA',
  ].join('');

  function send(body: string, abortAfterWrite: boolean): Promise<{ status: number; text: string } | 'aborted'> {
    return new Promise((resolve) => {
      const url = new URL(`${t.url}/v1/videos`);
      const req = request(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' } },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, text }));
        },
      );
      req.on('error', () => resolve('aborted'));
      req.write(body);
      if (abortAfterWrite) setTimeout(() => req.destroy(), 100);
      else req.end();
    });
  }

  it('a body that ends inside a file part is a 400, and the gateway lives on', async () => {
    const answer = await send(head, false);
    expect(answer).not.toBe('aborted');
    const { status, text } = answer as { status: number; text: string };
    expect(status).toBe(400);
    expect(JSON.parse(text).error.code).toBe('invalid_multipart');
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
  });

  it('a client gone mid-upload is recorded, uncharged, and the gateway lives on', async () => {
    const before = await t.gateway.db.prisma.usageRecord.count();
    expect(await send(head, true)).toBe('aborted');
    await readUntil(() => t.gateway.db.prisma.usageRecord.count(), (count) => count > before, 'the usage record of the upload the client left', 3000, 50);
    const records = await t.gateway.db.prisma.usageRecord.findMany({ orderBy: { createdAt: 'desc' }, take: 1 });
    expect(records[0].amountMicrousd).toBe(0n);
    expect(records[0].statusCode).toBe(400);
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
  });
});
