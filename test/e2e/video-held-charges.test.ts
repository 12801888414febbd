import { eventually } from '../support/eventually';
import { fastVideoConfig } from '../support/fast-video-config';
import { fetchUsageRecord, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

/**
 * A video submission whose usage record could not be committed (the
 * database refused it, so it went to the disk spool) still has its hold
 * ended when the task ends: by the task's own transition (which replays the
 * spool first), or else by the sweeper, once the record is back.
 */

/** Makes the database refuse held usage records, as an outage of that table would, until `allow`. */
async function refuseHeldRecords(t: TestGateway): Promise<{ allow: () => Promise<void> }> {
  await t.gateway.db.execScript(`
    CREATE OR REPLACE FUNCTION "test_refuse_held"() RETURNS trigger AS $$
    BEGIN
      IF NEW."billing_state" = 'held' THEN RAISE EXCEPTION 'usage_records refuses writes (test outage)'; END IF;
      RETURN NEW;
    END $$ LANGUAGE plpgsql;
    CREATE TRIGGER "test_refuse_held" BEFORE INSERT ON "usage_records" FOR EACH ROW EXECUTE FUNCTION "test_refuse_held"();`);
  return { allow: () => t.gateway.db.execScript('DROP TRIGGER "test_refuse_held" ON "usage_records"') };
}

async function submit(t: TestGateway, key: string, prompt: string): Promise<{ id: string; requestId: string }> {
  const res = await fetch(`${t.url}/v1/videos`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gen-imagine-video', prompt, duration: 6 }),
  });
  expect(res.status).toBe(200);
  return { id: ((await res.json()) as { request_id: string }).request_id, requestId: res.headers.get('x-svc-request-id')! };
}

async function read(t: TestGateway, key: string, id: string): Promise<any> {
  return (await fetch(`${t.url}/v1/videos/${id}`, { headers: { authorization: `Bearer ${key}` } })).json();
}

const until = <T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 8000) => eventually(probe, what, timeoutMs, 50);

const isFinal = (body: any) => !body.status || body.status === 'failed' || body.status === 'expired';

describe.each(TEST_DATABASES)('held video charges whose usage record went to the spool (%s)', (database) => {
  describe('ended by the task\'s own transition', () => {
    let t: TestGateway;
    let key: string;
    beforeAll(async () => {
      // No background poller: the client's reads advance the tasks, so each step below is the gateway's whole answer.
      t = await startTestGateway({ database, config: fastVideoConfig({ first_poll_after_ms: 0 }), env: { GATEWAY_VIDEO_POLLER: 'false' } });
      key = await t.createKey({ name: 'spooled-holds' });
    });
    afterAll(() => t?.close());

    it.each([
      ['completes: settled for the seconds delivered', 'done [sim gen_ms=100]', { state: 'settled', amount_microusd: 300_000, held_microusd: 300_000 }],
      ['fails: refunded', 'broken [sim gen_ms=100 fail]', { state: 'refunded', amount_microusd: 0, held_microusd: 300_000 }],
    ])('a task that %s', async (_what, prompt, billing) => {
      const outage = await refuseHeldRecords(t);
      const task = await submit(t, key, prompt);
      expect((await fetchUsageRecord(t, key, task.requestId)).status).toBe(404); // in the spool, not the database
      await outage.allow();

      // The reads below poll the task whenever it is due, until the upstream has finished it.
      const done = await until(async () => {
        const body = await read(t, key, task.id);
        return isFinal(body) ? body : undefined;
      }, 'the task to end');
      expect(done.status ?? 'completed').toBe(billing.state === 'settled' ? 'completed' : 'failed');
      // Read at once: the transition itself replayed the spool and ended the hold.
      const record = await fetchUsageRecord(t, key, task.requestId);
      expect(record.status).toBe(200);
      expect(record.body.billing).toMatchObject(billing);
    });

    it('a hold still spooled when its task ended is ended by the sweeper pass, exactly once however many run it', async () => {
      const outage = await refuseHeldRecords(t);
      const task = await submit(t, key, 'late [sim gen_ms=100 fail]');
      // The task ends while the table still refuses: its replay keeps the record in the spool.
      expect((await until(async () => ((b) => (isFinal(b) ? b : undefined))(await read(t, key, task.id)), 'the task to end')).status).toBe('failed');
      expect((await fetchUsageRecord(t, key, task.requestId)).status).toBe(404);
      await outage.allow();

      // Two instances sweeping at once: both may find the hold, one ends it.
      const videos = t.gateway.services.videos;
      const passes = await Promise.all([videos.reconcileHeldCharges(), videos.reconcileHeldCharges()]);
      expect(passes.reduce((n, p) => n + p.refunded + p.settled, 0)).toBe(1);
      const record = await fetchUsageRecord(t, key, task.requestId);
      expect(record.body.billing).toMatchObject({ state: 'refunded', amount_microusd: 0, held_microusd: 300_000 });
      const settledAt = record.body.billing.settled_at;
      expect(await videos.reconcileHeldCharges()).toEqual({ settled: 0, refunded: 0, more: false });
      expect((await fetchUsageRecord(t, key, task.requestId)).body.billing.settled_at).toBe(settledAt);
    });
  });

  describe('ended by the background sweeper', () => {
    let t: TestGateway;
    let key: string;
    beforeAll(async () => {
      // A 50 ms idle pause: the sweeper passes every 3 s.
      t = await startTestGateway({ database, config: fastVideoConfig({ first_poll_after_ms: 0 }), env: { GATEWAY_VIDEO_POLL_IDLE_MS: '50' } });
      key = await t.createKey({ name: 'swept-holds' });
    });
    afterAll(() => t?.close());

    it('settles a completed task and refunds a failed one once their records are back', async () => {
      const outage = await refuseHeldRecords(t);
      const done = await submit(t, key, 'swept done [sim gen_ms=100]');
      const failed = await submit(t, key, 'swept failed [sim gen_ms=100 fail]');
      for (const task of [done, failed]) {
        await until(async () => (isFinal(await read(t, key, task.id)) ? true : undefined), 'the task to end');
        expect((await fetchUsageRecord(t, key, task.requestId)).status).toBe(404);
      }
      await outage.allow();

      const settled = await until(async () => {
        const record = await fetchUsageRecord(t, key, done.requestId);
        return record.body.billing?.state === 'settled' ? record.body : undefined;
      }, 'the sweeper to settle the completed task', 10_000);
      expect(settled.billing).toMatchObject({ amount_microusd: 300_000, held_microusd: 300_000 });
      const refunded = await until(async () => {
        const record = await fetchUsageRecord(t, key, failed.requestId);
        return record.body.billing?.state === 'refunded' ? record.body : undefined;
      }, 'the sweeper to refund the failed task', 10_000);
      expect(refunded.billing).toMatchObject({ amount_microusd: 0, held_microusd: 300_000 });
      expect(await t.gateway.db.prisma.usageRecord.count({ where: { billingState: 'held' } })).toBe(0);
    }, 30_000);
  });
});
