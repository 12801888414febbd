import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayError } from '../../errors/gateway-error';
import type { UpstreamChatRequest } from '../chat-adapter';
import { UnsupportedParameterError } from '../unsupported-parameter';
import { GEMINI_IMAGE_DOWNLOAD_LIMITS, type ImageDownloadLimits } from './download-image';
import { toGeminiRequest } from './gemini-request';

/** Image n: 3000 bytes of the value n, answered after a short wait so that downloads overlap if they are let. */
const image = (n: number) => Buffer.alloc(3000, n);

let server: Server;
let origin: string;
let inFlight = 0;
let mostInFlight = 0;
let started: string[] = [];
let openConnections = 0;
let mostOpenConnections = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    started.push(req.url!);
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    let counted = true;
    const done = () => {
      if (counted) inFlight--;
      counted = false;
    };
    res.on('close', done);
    const n = Number(/^\/img\/(\d+)\.png(\?\w+)?$/.exec(req.url!)?.[1]);
    setTimeout(() => {
      if (Number.isNaN(n)) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'image/png' }).end(image(n));
    }, 25);
  });
  server.on('connection', (socket) => {
    openConnections++;
    mostOpenConnections = Math.max(mostOpenConnections, openConnections);
    socket.on('close', () => openConnections--);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  started = [];
  mostInFlight = 0;
});

const loopback: ImageDownloadLimits = { ...GEMINI_IMAGE_DOWNLOAD_LIMITS, allowedProtocols: ['http:'], allowPrivateAddresses: true };

/** `count` image URLs spread over three user messages (with an assistant turn between two of them). */
function imageRequest(count: number, url = (n: number) => `${origin}/img/${n}.png`): UpstreamChatRequest {
  const parts = (from: number, to: number) => [
    { type: 'text' as const, text: `images ${from} to ${to - 1}` },
    ...Array.from({ length: to - from }, (_, i) => ({ type: 'image_url' as const, image_url: { url: url(from + i) } })),
  ];
  const third = Math.ceil(count / 3);
  return {
    model: 'gemini-2.5-flash',
    messages: [
      { role: 'user', content: parts(0, third) },
      { role: 'assistant', content: 'Go on.' },
      { role: 'user', content: parts(third, 2 * third) },
      { role: 'user', content: parts(2 * third, count) },
    ],
  };
}

describe('the images of a Gemini request', () => {
  it('are downloaded at most 4 at a time over the whole request, each into its own place', async () => {
    const body = await toGeminiRequest(imageRequest(40), { imageDownload: loopback });
    expect(mostInFlight).toBe(4);
    // Kept-alive connections are reused from one image to the next: a handful, never one per image.
    expect(mostOpenConnections).toBeLessThanOrEqual(8);
    expect(started.sort()).toEqual(Array.from({ length: 40 }, (_, n) => `/img/${n}.png`).sort());
    const inline = body.contents.flatMap((content) => content.parts).filter((part) => part.inlineData);
    expect(inline.map((part) => part.inlineData)).toEqual(Array.from({ length: 40 }, (_, n) => ({ mimeType: 'image/png', data: image(n).toString('base64') })));
    // The two consecutive user messages are merged, with their images in order.
    expect(body.contents.map((content) => content.role)).toEqual(['user', 'model', 'user']);
  });

  it('are refused with 413 once they add up to more than the request budget, and the rest are not fetched', async () => {
    const request = imageRequest(30, (n) => `${origin}/img/${n}.png?budget`);
    const error = await toGeminiRequest(request, { imageDownload: { ...loopback, maxTotalBytes: 10_000 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ status: 413, code: 'request_body_too_large' });
    expect((error as GatewayError).message).toMatch(/^The images this request gives by URL add up to more than [\d.]+ MB downloaded\. Send fewer or smaller images\.$/);
    expect((error as GatewayError).options.details).toEqual({ max_image_bytes_per_request: 10_000 });
    // Three images fit; the fourth passes the budget; at most the downloads already started went on.
    expect(started.filter((url) => url.endsWith('?budget')).length).toBeLessThanOrEqual(8);
  });

  it('keeps the default budget at 50 MB', () => {
    expect(GEMINI_IMAGE_DOWNLOAD_LIMITS).toMatchObject({ maxBytes: 20 * 1024 * 1024, maxTotalBytes: 50 * 1024 * 1024, maxConcurrent: 4 });
  });

  it('stop at the first failed download, which names its field', async () => {
    const url = (n: number) => (n === 1 ? `${origin}/missing` : `${origin}/img/${n}.png?failing`);
    const error = await toGeminiRequest(imageRequest(30, url), { imageDownload: loopback }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedParameterError);
    expect(error).toMatchObject({ param: 'messages[0].content[2].image_url.url', message: expect.stringContaining('the server answered HTTP 404') });
    expect(started.filter((url) => url.endsWith('?failing')).length).toBeLessThanOrEqual(8);
  });
});

describe('a client that leaves', () => {
  it('stops the downloads and fails the conversion as an abort, sending nothing half-filled', async () => {
    const controller = new AbortController();
    const request = imageRequest(20, (n) => `${origin}/img/${n}.png?leaving`);
    const pending = toGeminiRequest(request, { imageDownload: loopback, signal: controller.signal });
    // The client leaves once the first four downloads (the concurrency limit) are under way, however slow the machine.
    const leaving = setInterval(() => {
      if (started.filter((url) => url.endsWith('?leaving')).length >= 4) {
        clearInterval(leaving);
        controller.abort();
      }
    }, 2);
    const error = await pending.catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(started.filter((url) => url.endsWith('?leaving')).length).toBe(4);
    const already = new AbortController();
    already.abort();
    await expect(toGeminiRequest(imageRequest(3), { imageDownload: loopback, signal: already.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});
