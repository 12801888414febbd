import { createServer, type Server } from 'node:net';

/**
 * A "Redis" that accepts every connection and drops it at once, as a Redis
 * that is restarting or unreachable does, for the describe block it is
 * called in. `url()` is its address once the block's tests run.
 */
export function unreachableRedis(): { url(): string } {
  let server: Server | undefined;
  let url = '';
  beforeAll(async () => {
    server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    url = `redis://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));
  return { url: () => url };
}

/** Runs `body` and returns the promise rejections nobody handled meanwhile (there should be none). */
export async function unhandledRejectionsDuring(body: () => Promise<void>): Promise<unknown[]> {
  const unhandled: unknown[] = [];
  const collect = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', collect);
  try {
    await body();
  } finally {
    process.off('unhandledRejection', collect);
  }
  return unhandled;
}
