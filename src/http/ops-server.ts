import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Router } from 'express';

export interface OpsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * A listener of its own for operations (readiness, metrics), so they need
 * not be reachable where API clients are (`GATEWAY_OPS_PORT`, on
 * `GATEWAY_OPS_HOST`, loopback by default).
 */
export async function startOpsServer(routers: Router[], host: string, port: number): Promise<OpsServer> {
  const app = express();
  app.disable('x-powered-by');
  for (const router of routers) app.use(router);
  app.use((_req, res) => void res.status(404).json({ status: 'not found' }));
  const server: Server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
