import { progress } from '../bench/progress';
import type { Drill, DrillReport } from './drill';
import { chat, closedLoop, keyFor, metricOf, openStage, recordsOf, share, sleep, startGateway, waitFor, type Answer } from './drill-kit';
import { startPrivatePostgres } from './private-services';

const OUTAGE_S = Number(process.env.DRILL_OUTAGE_SECONDS ?? 30);
const BEFORE_S = 8;
const AFTER_S = 8;
const CONNECTIONS = 8;
const UNAUTHENTICATED = new Set(['key_check_unavailable', 'invalid_api_key', 'missing_api_key']);

/**
 * PostgreSQL stopped for 30 s under load (as in a crash: `pg_ctl stop -m
 * immediate`), then started again. The documented policy: keys seen lately
 * are admitted from memory, calls are served, and their usage records go to
 * the local spool, replayed once the database is back. Afterwards every
 * answered call has exactly one record: none lost, none written twice.
 */
export const databaseOutageDrill: Drill = {
  id: 'database_outage',
  short: false,
  summary: `PostgreSQL down for ${OUTAGE_S} s under ${CONNECTIONS} connections of chat calls, then back`,
  async run(report: DrillReport) {
    const pg = await startPrivatePostgres();
    const stage = await openStage({ GATEWAY_DB_CONNECT_TIMEOUT_MS: '1000' }, pg.url);
    const gateway = await startGateway(stage, 'gateway');
    const key = await keyFor(stage, gateway, 'outage');
    let phase: 'before' | 'outage' | 'after' = 'before';
    let stopping = false;
    const byPhase = { before: [] as Answer[], outage: [] as Answer[], after: [] as Answer[] };
    const load = closedLoop(CONNECTIONS, () => stopping, async (n) => {
      const at = phase;
      const answer = await chat(gateway.url, key, `outage drill ${n} [sim words=10]`, n % 3 === 0);
      byPhase[at].push(answer);
      return answer;
    });
    await sleep(BEFORE_S * 1000);
    progress(`database_outage: stopping PostgreSQL for ${OUTAGE_S} s`);
    phase = 'outage';
    await pg.stop();
    await sleep(OUTAGE_S * 1000);
    await pg.start();
    progress('database_outage: PostgreSQL is back');
    phase = 'after';
    await sleep(AFTER_S * 1000);
    stopping = true;
    const answers = await load;

    for (const at of ['before', 'outage', 'after'] as const) {
      const list = byPhase[at];
      const ok = list.filter((a) => a.status === 200 && a.complete).length;
      const codes = [...new Set(list.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.code ?? a.failed ?? ''}`))].join(', ');
      report.note(`calls ${at === 'outage' ? 'during' : at} the outage: answered whole`, `${share(ok, list.length)}${codes ? `; refused: ${codes}` : ''}`);
    }
    const served = byPhase.outage.filter((a) => a.status === 200 && a.complete).length;
    report.check('calls served during the outage (the key admitted from memory, records spooled)', share(served, byPhase.outage.length), served > 0);
    const broken = answers.filter((a) => a.status === 500 || a.status === 0 || !a.requestId);
    report.check('calls with a 500, no answer or no request id', String(broken.length), broken.length === 0);

    const drained = await waitFor(async () => (await metricOf(stage, gateway.url, 'gateway_usage_spool_depth')) === 0, 60_000, 500);
    report.check('spool replayed into the database after recovery', drained ? 'empty' : `${await metricOf(stage, gateway.url, 'gateway_usage_spool_depth')} records still spooled after 60 s`, drained);
    const stopped = await gateway.handle.stop(60_000);
    report.check('gateway up throughout, clean exit', `exit code ${stopped.code}`, stopped.code === 0);
    // A call refused before its key was known has no record to keep (nobody to bill).
    const ids = answers.filter((a) => !(a.code && UNAUTHENTICATED.has(a.code))).map((a) => a.requestId).filter((id): id is string => Boolean(id));
    const records = await recordsOf(pg.url, ids);
    report.check('usage records: one per answered call (0 lost, 0 twice)', `${share(records.distinct, ids.length)}; ${records.missing.length} missing, ${records.found - records.distinct} twice`, records.missing.length === 0 && records.found === records.distinct);
  },
};
