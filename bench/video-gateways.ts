import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import { loadGatewayConfig, parseConfigFile } from '../src/config/load-config';
import type { VideoCapabilities } from '../src/config/gateway-config-schema';
import type { Report } from './context';
import { startGatewayProcess, uncleanExit, type GatewayProcess } from './processes';
import { checkNoBuiltInSimulator, SIMULATOR_PATHS } from './upstream';

/**
 * The gateway instances of the video phase: a config file (the default
 * catalog, every provider and search backend a real one at the simulator's address, the video
 * models polled on the bench's schedule), instances started on it, and their
 * poll counters read from `/metrics`.
 */

/** The bench's schedules name every field: its poll counts are computed from them. */
export type Polling = Required<VideoCapabilities['polling']>;

/** Writes `<dir>/gateway.json` and checks that the gateway would accept it; returns its path. */
export function writeVideoBenchConfig(dir: string, simulatorUrl: string, polling: Polling): string {
  const { config } = loadGatewayConfig({});
  const providers = Object.fromEntries(
    Object.entries(config.providers).map(([name, p]) => [name, { type: p.type, base_url: `${simulatorUrl}${SIMULATOR_PATHS[p.type]}`, api_key_env: p.api_key_env }]),
  );
  const models = config.models.map((m) => (m.video ? { ...m, video: { ...m.video, polling } } : m));
  // The search backends too, or the instances would start a built-in simulator for them.
  const search = { ...config.search, backends: config.search.backends.map((b) => ({ ...b, simulator: false, base_url: `${simulatorUrl}/${b.type}` })) };
  const file = path.join(dir, 'gateway.json');
  writeFileSync(file, JSON.stringify({ ...config, providers, models, search }, null, 2));
  parseConfigFile(file);
  return file;
}

/** Starts a gateway instance and checks its start-up log; `label` names it in failures. */
export async function startInstance(label: string, env: NodeJS.ProcessEnv, nodeArgs: string[], report: Report): Promise<GatewayProcess> {
  const gateway = await startGatewayProcess({ name: label, env, nodeArgs });
  await checkNoBuiltInSimulator(gateway, report, label);
  return gateway;
}

/** SIGTERM; an unclean exit is a failure of the run. Returns whether it exited with code 0. */
export async function stopInstance(gateway: GatewayProcess, label: string, report: Report): Promise<boolean> {
  const problem = uncleanExit(await gateway.handle.stop(30_000));
  if (problem) report.fail(`${label} did not exit cleanly on SIGTERM: ${problem}\n${gateway.handle.output.text()}`);
  return problem === undefined;
}

/** The sum of a counter over its label sets, from a gateway's Prometheus text (read with the admin token). */
export async function readCounter(gateway: GatewayProcess, adminToken: string, name: string): Promise<number> {
  const res = await request(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${adminToken}` } });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${gateway.url}/metrics: HTTP ${res.statusCode}`);
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

/** Requests the simulator received (its own control routes excluded). */
export async function simulatorReceived(simulatorUrl: string): Promise<number> {
  const res = await request(`${simulatorUrl}/_sim/requests?limit=0`);
  const { received } = (await res.body.json()) as { received: number };
  return received;
}
