import { request } from 'undici';
import { against } from './context';
import { createTarget, type TargetResult } from './load';
import { chatRequest, errorsCell, errorsCheck, measure, of, perRequest, targetJson, type Phase } from './phases';
import { median, round } from './stats';
import { fmt } from './table';

const REPETITIONS = 3;

/**
 * What spend control costs a paid call: the same non-streaming load as
 * `non_streaming_loaded`, once with a key of an account without a wallet
 * and once with a key of an account under spend control (a prepaid wallet,
 * an account budget and a key budget), in interleaved pairs on the same gateway.
 * The difference in gateway CPU per request is the hold before the call and
 * its settlement in the record's insert.
 */
export const spendControl: Phase = {
  id: 'spend_control',
  async run(ctx) {
    const n = ctx.settings.connections;
    const key = await controlledKey(ctx.gateway.url, String(ctx.gatewayEnv.GATEWAY_ADMIN_TOKEN));
    const controlled = createTarget(`${ctx.viaGateway.name} (spend control)`, ctx.gateway.url, { authorization: `Bearer ${key}` }, n);
    try {
      const chat = chatRequest(ctx, false);
      // Interleaved repetitions, medians: one pair of windows differs by more than the cost measured.
      const reps: Array<{ plain: TargetResult; held: TargetResult; plainCpu: number; heldCpu: number }> = [];
      for (let rep = 1; rep <= REPETITIONS; rep++) {
        const plain = await measure(ctx, `non-streaming ${n} conn, no wallet (${rep}/${REPETITIONS})`, { targets: [ctx.viaGateway], connections: n, request: chat });
        const held = await measure(ctx, `non-streaming ${n} conn, spend control (${rep}/${REPETITIONS})`, { targets: [controlled], connections: n, request: chat });
        const p = of(plain.result, ctx.viaGateway);
        const h = of(held.result, controlled);
        reps.push({ plain: p, held: h, plainCpu: perRequest(plain.gatewayCpuMs, p), heldCpu: perRequest(held.gatewayCpuMs, h) });
      }
      const plainCpu = median(reps.map((r) => r.plainCpu));
      const heldCpu = median(reps.map((r) => r.heldCpu));
      const added = median(reps.map((r) => r.heldCpu - r.plainCpu));
      const rate = (r: TargetResult) => r.requests / r.elapsedS;
      const { report } = ctx;
      report.section(`Spend control (hold + settle per call), non-streaming, ${n} connections, median of ${REPETITIONS} interleaved pairs`);
      report.row('throughput (spend control / none)', fmt.rate(median(reps.map((r) => rate(r.held)))), fmt.rate(median(reps.map((r) => rate(r.plain)))));
      report.row('CPU per request (spend control / none)', fmt.ms(heldCpu, 3), fmt.ms(plainCpu, 3), fmt.ms(added, 3), '<= 0.05 ms added', against(added, 0.05));
      report.row('errors (non-2xx + failed)', errorsCell(...reps.map((r) => r.held)), errorsCell(...reps.map((r) => r.plain)), '', '0', errorsCheck(...reps.flatMap((r) => [r.held, r.plain])));
      report.json[this.id] = {
        connections: n,
        repetitions: reps.map((r) => ({
          spend_control: targetJson(r.held, { cpu_ms_per_request: round(r.heldCpu, 4) }),
          none: targetJson(r.plain, { cpu_ms_per_request: round(r.plainCpu, 4) }),
        })),
        added_cpu_ms_per_request: round(added, 4),
      };
    } finally {
      await controlled.pool.close().catch(() => undefined);
    }
  },
};

/** An account with a prepaid wallet (far more than the run spends), an account budget and a key budget, and a key of it. */
async function controlledKey(gatewayUrl: string, adminToken: string): Promise<string> {
  const admin = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const res = await request(`${gatewayUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`spend control set-up: POST ${path}: HTTP ${res.statusCode}: ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const account = String((await admin('/api/admin/accounts', { name: 'bench-spend-control' })).id);
  const made = await admin('/api/admin/keys', { name: 'bench-spend-control', account_id: account });
  await admin(`/api/admin/accounts/${account}/wallet/top-ups`, { amount_microusd: 1_000_000_000_000, note: 'bench' });
  await admin(`/api/admin/accounts/${account}/budgets`, { scope: 'account', period: 'monthly', limit_microusd: 1_000_000_000_000 });
  await admin(`/api/admin/accounts/${account}/budgets`, { scope: 'key', scope_id: made.id, period: 'daily', limit_microusd: 1_000_000_000_000 });
  return String(made.key);
}
