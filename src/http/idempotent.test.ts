import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Principal } from '../keys/principal';
import { silentLogger } from '../observability/logger';
import type { IdempotencyClaim, IdempotencyStore, StoredAnswer } from './idempotency-store';
import { idempotent } from './idempotent';
import type { RequestLocals } from './request-locals';

/**
 * The middleware alone over a store that takes its time: the answer must not
 * reach the client before the store keeps it, or a client that retries the
 * moment it has the answer is told the first request is still running.
 */
describe('idempotent', () => {
  let server: Server;
  let url: string;
  const events: string[] = [];
  const store = {
    claim: async () => ({ kind: 'claimed' as const }),
    complete: async (_claim: IdempotencyClaim, answer: StoredAnswer) => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      events.push(`kept ${answer.status} ${answer.body}`);
    },
    release: async () => void events.push('released'),
  } as unknown as IdempotencyStore;

  beforeAll(async () => {
    const app = express();
    app.use(express.json());
    app.use((_req, res, next) => {
      const l: RequestLocals = { requestId: 'req_1', startedAt: 0, createdAt: new Date(), principal: { keyId: 'key_1' } as Principal };
      res.locals = l as unknown as typeof res.locals;
      next();
    });
    app.post('/ok', idempotent(store, 'test', silentLogger), (_req, res) => void res.json({ id: 'task_1' }));
    app.post('/busy', idempotent(store, 'test', silentLogger), (_req, res) => void res.status(503).json({ error: 'busy' }));
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => void events.splice(0));

  const post = async (route: string) => {
    const res = await fetch(`${url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': 'k-1' }, body: '{}' });
    events.push(`answered ${res.status} ${await res.text()}`);
  };

  it('keeps the answer before the client has it', async () => {
    await post('/ok');
    expect(events).toEqual(['kept 200 {"id":"task_1"}', 'answered 200 {"id":"task_1"}']);
  });

  it('frees the key of a failed request before the client hears of the failure', async () => {
    await post('/busy');
    expect(events).toEqual(['released', 'answered 503 {"error":"busy"}']);
  });
});
