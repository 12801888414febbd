import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { readUntil } from '../support/eventually';
import { spawnGateway } from '../support/gateway-process';
import { createTestDatabase } from '../support/postgres-database';
import { ADMIN_TOKEN, fetchUsageRecord, startTestGateway, type TestGateway } from '../support/test-gateway';

const chatBody = (content: string) => JSON.stringify({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content }] });

/** Holds `usage_records` locked (as a long migration or a stuck administrator would) until `release()`. */
async function lockUsageRecords(databaseUrl: string): Promise<{ release(): Promise<void> }> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('BEGIN');
  await client.query('LOCK TABLE "usage_records" IN ACCESS EXCLUSIVE MODE');
  return {
    async release() {
      await client.query('ROLLBACK');
      await client.end();
    },
  };
}

/** Statements on this database that are waiting for a lock now. */
async function statementsWaitingForALock(databaseUrl: string): Promise<number> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query("SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
    return rows[0].waiting as number;
  } finally {
    await client.end();
  }
}

describe('PostgreSQL that cannot take writes', () => {
  let t: TestGateway;
  let key: string;
  afterAll(() => t?.close());

  it('serves model calls with their records spooled, says it is not ready, and replays the records once the lock is gone', async () => {
    t = await startTestGateway({ database: 'postgres', env: { GATEWAY_DB_LOCK_TIMEOUT_MS: '300' } });
    key = await t.createKey();
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    expect((await fetch(`${t.url}/readyz`)).status).toBe(200);

    const lock = await lockUsageRecords(t.databaseUrl!);
    let released = false;
    try {
      const started = Date.now();
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => fetch(`${t.url}/v1/chat/completions`, { method: 'POST', headers: auth, body: chatBody(`locked ${i}`) })));
      // They used to hang for as long as the lock lasted.
      expect(Date.now() - started).toBeLessThan(8_000);
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      const ids = answers.map((a) => a.headers.get('x-svc-request-id')!);

      const ready = await fetch(`${t.url}/readyz`);
      expect(ready.status).toBe(503);
      const body = (await ready.json()) as { status: string; reason: string };
      expect(body).toMatchObject({ status: 'unavailable', database: 'postgres' });
      // The operator's words, not the driver's.
      expect(body.reason).not.toMatch(/lock|timeout|canceling|relation/i);

      await lock.release();
      released = true;
      await readUntil(async () => (await fetch(`${t.url}/readyz`)).status, (status) => status === 200, 'the gateway to be ready again', 15_000, 200);
      for (const id of ids) {
        const record = await readUntil(() => fetchUsageRecord(t, key, id), (r) => r.status === 200, `the replayed usage record ${id}`, 15_000, 200);
        expect(record).toMatchObject({ status: 200, body: { id, routing: { status_code: 200 } } });
      }
    } finally {
      if (!released) await lock.release();
    }
  }, 60_000);
});

describe('SIGTERM while the database hangs', () => {
  it('exits within its deadlines, with the records it could not commit in the spool', async () => {
    const db = await createTestDatabase();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-sigterm-'));
    // No lock time-out: a commit waits for the statement time-out, far longer than shutdown may take.
    const gateway = await spawnGateway({
      DATABASE_URL: db.url, GATEWAY_DATA_DIR: dataDir, GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN,
      GATEWAY_DB_LOCK_TIMEOUT_MS: '0', GATEWAY_DB_STATEMENT_TIMEOUT_MS: '120000', GATEWAY_SHUTDOWN_GRACE_MS: '1000', GATEWAY_SHUTDOWN_FLUSH_MS: '1500',
    });
    const lock = { release: async () => undefined } as { release(): Promise<void> };
    try {
      const created = await fetch(`${gateway.url}/api/admin/keys`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'sigterm' }) });
      const { key } = (await created.json()) as { key: string };
      Object.assign(lock, await lockUsageRecords(db.url));
      const pending = fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: chatBody('hangs') }).catch(() => undefined);
      // The shutdown starts once the gateway is stuck on the locked table, as the database's own view of it shows.
      await readUntil(() => statementsWaitingForALock(db.url), (waiting) => waiting > 0, 'a statement of the gateway to wait for the lock', 10_000, 50);
      const started = Date.now();
      const code = await gateway.kill('SIGTERM');
      // Grace (1 s) + flush deadline (1.5 s) + closing: it used to wait 75 s, or for ever.
      const tookMs = Date.now() - started;
      // When it takes longer, the gateway's own account of its shutdown steps says where the time went.
      if (tookMs >= 8_000) throw new Error(`the shutdown took ${tookMs} ms; the gateway's log:\n${gateway.output().split('\n').slice(-40).join('\n')}`);
      expect(code).toBe(0);
      await pending;
      const spool = path.join(dataDir, 'usage-spool.jsonl');
      expect(existsSync(spool)).toBe(true);
      const spooled = readFileSync(spool, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { endpoint: string });
      expect(spooled.some((r) => r.endpoint === '/v1/chat/completions')).toBe(true);
      expect(gateway.output()).toContain('spooled at shutdown');
    } finally {
      await lock.release();
      await db.drop();
    }
  }, 60_000);
});
