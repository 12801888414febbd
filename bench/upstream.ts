import { DEFAULT_PROVIDERS, DEFAULT_SEARCH_BACKENDS } from '../src/config/default-catalog';
import { SIMULATOR_BASE_PATH } from '../src/providers/resolved-provider';
import type { Report } from './context';
import type { GatewayProcess } from './processes';

/**
 * Every provider of the bench gateway goes to the simulator process, so that
 * the gateway under test never starts its in-process simulator (which would
 * cost it memory and CPU and blur what is measured).
 */

/** Where the simulator serves each protocol: the gateway's own built-in simulator routing. */
export const SIMULATOR_PATHS = SIMULATOR_BASE_PATH;

/** The API key every provider gets; the simulator takes any non-empty one. */
export const SIMULATOR_API_KEY = 'bench';

/**
 * `<PREFIX>_API_KEY` and `<PREFIX>_BASE_URL` for every provider of the default
 * catalog (OPENAI, ANTHROPIC, GEMINI, XAI, VOYAGE) and every hosted search
 * backend (TAVILY, SERPER, EXA): with its key set, a provider or backend is
 * real, and its base URL is the simulator's (search under `/<type>`).
 */
export function simulatorProviderEnv(simulatorUrl: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const provider of Object.values(DEFAULT_PROVIDERS)) {
    const prefix = provider.api_key_env.replace(/_API_KEY$/, '');
    env[provider.api_key_env] = SIMULATOR_API_KEY;
    env[`${prefix}_BASE_URL`] = `${simulatorUrl}${SIMULATOR_PATHS[provider.type]}`;
  }
  for (const backend of DEFAULT_SEARCH_BACKENDS) {
    env[backend.api_key_env] = SIMULATOR_API_KEY;
    env[`${backend.type.toUpperCase()}_BASE_URL`] = `${simulatorUrl}/${backend.type}`;
  }
  return env;
}

const LISTENING = 'gateway listening';
const BUILT_IN_SIMULATOR = 'built-in simulator';

/**
 * Reads a freshly started gateway's start-up log (it must log at info level):
 * the "gateway listening" line proves the log is complete, and a "built-in
 * simulator" line before it would mean a provider is served in-process.
 * Reports a failure and returns false when either check fails.
 */
export async function checkNoBuiltInSimulator(gateway: GatewayProcess, report: Report, label: string, timeoutMs = 5_000): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  // /healthz can answer before the pipe delivers the log line written just before it.
  while (!gateway.handle.output.text().includes(LISTENING) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const log = gateway.handle.output.text();
  if (!log.includes(LISTENING)) {
    report.fail(`${label}: no "${LISTENING}" line in the start-up log within ${timeoutMs} ms (is LOG_LEVEL info?)`);
    return false;
  }
  const line = log.split('\n').find((l) => l.includes(BUILT_IN_SIMULATOR));
  if (line) {
    report.fail(`${label}: runs its in-process simulator although every provider should go to the simulator process: ${line}`);
    return false;
  }
  return true;
}
