import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { progress } from '../bench/progress';
import type { Drill, DrillReport } from './drill';
import { chat, closedLoop, keyFor, metricOf, openStage, share, sleep, startGateway, type Answer } from './drill-kit';
import { startPrivateRedis } from './private-services';

const PAUSE_S = Number(process.env.DRILL_PAUSE_SECONDS ?? 60);
const BEFORE_S = 5;
const AFTER_S = 8;
const CONNECTIONS = 8;

/**
 * Redis paused (`CLIENT PAUSE`, every command held) for 60 s under load on
 * two instances with rate limits on. The documented fallback: rate limits
 * count per instance (`GATEWAY_RATE_LIMIT_REDIS_DOWN=open`) within their
 * 100 ms bound, so calls keep being served; nothing crashes; afterwards
 * limits count in Redis again and a task update published on one instance
 * reaches a subscriber on the other.
 */
export const redisPauseDrill: Drill = {
  id: 'redis_pause',
  short: false,
  summary: `Redis paused for ${PAUSE_S} s under ${CONNECTIONS} connections on two instances`,
  async run(report: DrillReport) {
    const redis = await startPrivateRedis();
    const stage = await openStage({ REDIS_URL: redis.url, GATEWAY_RATE_LIMIT_KEY_RPM: '1000000', GATEWAY_VIDEO_POLL_IDLE_MS: '200' });
    const [a, b] = [await startGateway(stage, 'gateway A'), await startGateway(stage, 'gateway B')];
    const key = await keyFor(stage, a, 'redis');
    let phase: 'before' | 'paused' | 'after' = 'before';
    let stopping = false;
    const byPhase = { before: [] as Answer[], paused: [] as Answer[], after: [] as Answer[] };
    const load = closedLoop(CONNECTIONS, () => stopping, async (n) => {
      const at = phase;
      const answer = await chat(n % 2 ? a.url : b.url, key, `redis drill ${n} [sim words=10]`, n % 3 === 0);
      byPhase[at].push(answer);
      return answer;
    });
    await sleep(BEFORE_S * 1000);
    progress(`redis_pause: CLIENT PAUSE ${PAUSE_S} s`);
    phase = 'paused';
    redis.cli('CLIENT', 'PAUSE', String(PAUSE_S * 1000), 'ALL');
    await sleep(PAUSE_S * 1000 + 500);
    phase = 'after';
    progress('redis_pause: Redis answers again');
    await sleep(2_000);
    const unavailableAtRecovery = await metricOf(stage, a.url, 'gateway_rate_limit_unavailable_total');
    await sleep(AFTER_S * 1000);
    stopping = true;
    const answers = await load;
    const unavailableAtEnd = await metricOf(stage, a.url, 'gateway_rate_limit_unavailable_total');

    for (const at of ['before', 'paused', 'after'] as const) {
      const list = byPhase[at];
      const ok = list.filter((x) => x.status === 200 && x.complete).length;
      const slowest = Math.max(0, ...list.map((x) => x.ms ?? 0));
      report.note(`calls ${at === 'paused' ? 'while Redis was paused' : `${at} the pause`}: answered whole / slowest`, `${share(ok, list.length)} / ${slowest} ms`);
    }
    const paused = byPhase.paused;
    const served = paused.filter((x) => x.status === 200 && x.complete).length;
    report.check('calls served while Redis was paused (limits counted per instance)', share(served, paused.length), paused.length > 0 && served === paused.length);
    const broken = answers.filter((x) => x.status >= 500 || x.status === 0 || !x.requestId);
    report.check('calls with a 5xx, no answer or no request id', String(broken.length), broken.length === 0);
    // After it, a call may still miss the 100 ms bound now and then on a busy machine; counting per instance must be the exception.
    const fallbacksAfter = unavailableAtEnd - unavailableAtRecovery;
    const callsAfter = byPhase.after.length;
    report.check('rate limits count in Redis again after the pause (calls counted per instance from 2 s after it)', `${fallbacksAfter} of about ${callsAfter} calls; Redis holds ${redis.cli('dbsize')} keys`, fallbacksAfter <= Math.max(2, callsAfter * 0.01));
    report.check('both instances up', `${a.handle.running ? 'A up' : 'A DOWN'}, ${b.handle.running ? 'B up' : 'B DOWN'}`, a.handle.running && b.handle.running);
    const delivered = await crossInstanceUpdate(a.url, b.url, key);
    report.check('a task update published on A reaches a subscriber on B (pub/sub recovered)', delivered ? 'delivered' : 'NOT delivered within 20 s', delivered);
  },
};

/** Subscribes to the key's task updates on `subscriberOrigin`, submits a video on `publisherOrigin`, and waits for its update. */
async function crossInstanceUpdate(publisherOrigin: string, subscriberOrigin: string, key: string): Promise<boolean> {
  const client = createClient({ url: `${subscriberOrigin.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${key}` }, retryAttempts: 0 });
  try {
    let seen: (id: string) => void = () => undefined;
    const ids = new Set<string>();
    let wanted: string | undefined;
    const arrived = new Promise<boolean>((resolve) => {
      seen = (id) => {
        ids.add(id);
        if (wanted && ids.has(wanted)) resolve(true);
      };
      setTimeout(() => resolve(false), 20_000).unref();
    });
    const subscription = client.iterate<{ tasksUpdated: { id: string } }>({ query: 'subscription { tasksUpdated { id status } }' });
    void (async () => {
      for await (const event of subscription) if (event.data) seen(event.data.tasksUpdated.id);
    })().catch(() => undefined);
    await sleep(500);
    const res = await fetch(`${publisherOrigin}/v1/videos`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sora-2', prompt: 'a drill [sim gen_ms=500]', seconds: '4', size: '720x1280' }),
    });
    wanted = ((await res.json()) as { id?: string }).id;
    if (wanted && ids.has(wanted)) return true;
    return await arrived;
  } finally {
    await client.dispose();
  }
}
