import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import {
  downloadImage, GEMINI_IMAGE_DOWNLOAD_LIMITS, ImageBudgetExceededError, ImageByteBudget, ImageDownloadError, type ImageDownloadLimits,
} from './download-image';

const GIF = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');
/** Sent in chunks of 1, 2, 4, 5, 7 ... bytes, so that chunk edges fall everywhere in base64's 3-byte groups. */
const DRIPPED = randomBytes(1000);

let server: Server;
let origin: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    switch (req.url) {
      case '/pixel.gif':
        return void res.writeHead(200, { 'content-type': 'image/gif; charset=binary' }).end(GIF);
      case '/moved':
        return void res.writeHead(302, { location: '/pixel.gif' }).end();
      case '/loop':
        return void res.writeHead(301, { location: '/loop' }).end();
      case '/declared-large':
        return void res.writeHead(200, { 'content-type': 'image/png', 'content-length': '4096' }).end(Buffer.alloc(4096));
      case '/streamed-large':
        res.writeHead(200, { 'content-type': 'image/png' });
        return void res.end(Buffer.alloc(4096));
      case '/dripped': {
        res.writeHead(200, { 'content-type': 'image/webp' });
        const sizes = [1, 2, 4, 5, 7, 3, 1, 1, 8, 11, 2];
        let at = 0;
        const send = (i: number) => {
          if (at >= DRIPPED.length) return void res.end();
          const size = sizes[i % sizes.length]!;
          res.write(DRIPPED.subarray(at, at + size));
          at += size;
          setImmediate(() => send(i + 1));
        };
        return send(0);
      }
      case '/slow':
        return; // never answers
      case '/svg':
        return void res.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg/>');
      default:
        return void res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const limits: ImageDownloadLimits = {
  allowedProtocols: ['http:'], maxBytes: 1024, maxTotalBytes: 4096, maxConcurrent: 4, timeoutMs: 300, maxRedirects: 2, allowPrivateAddresses: true,
};
const failure = (path: string, custom = limits): Promise<Error> => downloadImage(`${origin}${path}`, custom).then(
  () => new Error('expected a refusal'),
  (error: Error) => error,
);

describe('downloadImage', () => {
  it('returns the bytes and the media type without its parameters, following a redirect', async () => {
    const gif = { mimeType: 'image/gif', base64: GIF.toString('base64'), bytes: GIF.length };
    await expect(downloadImage(`${origin}/pixel.gif`, limits)).resolves.toEqual(gif);
    await expect(downloadImage(`${origin}/moved`, limits)).resolves.toEqual(gif);
  });

  it('encodes a body that arrives in small, uneven chunks exactly as the whole', async () => {
    const image = await downloadImage(`${origin}/dripped`, { ...limits, timeoutMs: 5000 });
    expect(image).toEqual({ mimeType: 'image/webp', base64: DRIPPED.toString('base64'), bytes: DRIPPED.length });
  });

  it('takes the bytes from the request budget, and refuses past it as itself, not as a bad image', async () => {
    const budget = new ImageByteBudget(GIF.length * 2 + 5);
    await downloadImage(`${origin}/pixel.gif`, limits, undefined, budget);
    await downloadImage(`${origin}/pixel.gif`, limits, undefined, budget);
    expect(budget.remaining).toBe(5);
    const streamed = await downloadImage(`${origin}/pixel.gif`, limits, undefined, budget).catch((e: Error) => e);
    expect(streamed).toBeInstanceOf(ImageBudgetExceededError);
    // A declared length above what is left is refused before the body is read.
    const declared = await downloadImage(`${origin}/declared-large`, { ...limits, maxBytes: 8192 }, undefined, new ImageByteBudget(4095)).catch((e: Error) => e);
    expect(declared).toBeInstanceOf(ImageBudgetExceededError);
    expect(declared).toMatchObject({ maxTotalBytes: 4095 });
  });

  it.each([
    ['/pixel.gif', { ...limits, allowedProtocols: ['https:'] }, 'only https: URLs are fetched, not http:'],
    ['/loop', limits, 'more than 2 redirects'],
    ['/missing', limits, 'the server answered HTTP 404'],
    ['/svg', limits, 'the content type is image/svg+xml, not one of image/png, image/jpeg, image/gif, image/webp'],
    ['/declared-large', limits, 'the image is larger than'],
    ['/streamed-large', limits, 'the image is larger than'],
    ['/slow', limits, 'the download took longer than 0.3 s'],
  ] as const)('refuses %s with a reason', async (path, custom, reason) => {
    const error = await failure(path, custom);
    expect(error).toBeInstanceOf(ImageDownloadError);
    expect(error.message).toContain(reason);
  });

  it('refuses a redirect to a scheme that is not allowed', async () => {
    const redirecting = createServer((_req, res) => res.writeHead(302, { location: 'ftp://example.com/cat.png' }).end());
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    const error = await downloadImage(`http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/`, limits).then(
      () => new Error('expected a refusal'),
      (e: Error) => e,
    );
    await new Promise<void>((resolve) => redirecting.close(() => resolve()));
    expect(error.message).toBe('only http: URLs are fetched, not ftp:');
  });

  it('lets the caller abort as itself, not as a download failure', async () => {
    const controller = new AbortController();
    const pending = downloadImage(`${origin}/slow`, { ...limits, timeoutMs: 5000 }, controller.signal);
    controller.abort();
    const error = await pending.then(
      () => new Error('expected an abort'),
      (e: Error) => e,
    );
    expect(error.name).toBe('AbortError');
    expect(error).not.toBeInstanceOf(ImageDownloadError);
  });
});

describe('server-side image fetches never reach private addresses', () => {
  it.each(['https://127.0.0.1/x.png', 'https://[::1]/x.png', 'https://169.254.169.254/latest/meta-data', 'https://10.1.2.3/a.png', 'https://192.168.0.1/a.png'])('refuses %s', async (url) => {
    await expect(downloadImage(url, GEMINI_IMAGE_DOWNLOAD_LIMITS)).rejects.toThrow('private and reserved addresses are not fetched');
  });

  it('refuses a host name that resolves to loopback', async () => {
    await expect(downloadImage('https://localhost/x.png', GEMINI_IMAGE_DOWNLOAD_LIMITS)).rejects.toThrow('private and reserved addresses are not fetched');
  });
});
