import path from 'node:path';
import type { SimulatorHandle, SimulatorOptions } from '@model-gateway/simulator';
import { packageRoot } from '../config/package-root';
import type { GatewayConfig } from '../config/gateway-config-schema';
import { ProviderConfigError } from './resolved-provider';

/**
 * The built-in simulator is its own package, `@model-gateway/simulator`, a
 * development dependency: a production install (`npm ci --omit=dev`, the
 * Docker image unless built with `WITH_SIMULATOR=1`) does not have it. It is
 * loaded only when a provider or search backend is served by it, so an
 * install with every key set runs without it.
 */
type SimulatorPackage = typeof import('@model-gateway/simulator');

const PACKAGE_NAME = '@model-gateway/simulator';

/** The repository's recorded upstream responses, which `[sim replay=NAME]` replays; absent from an installed image. */
export function recordedFixturesDir(): string {
  return path.join(packageRoot(), 'test', 'fixtures', 'recorded');
}

/**
 * How long the built-in simulator takes to generate a video (unless a
 * prompt's `[sim gen_ms=…]` says otherwise): the expected generation time of
 * every video route it serves, so those tasks are polled on its clock.
 */
export const BUILT_IN_SIMULATOR_VIDEO_GENERATION_MS = 1_500;

/** Starts the simulator for the providers and search backends of `config` that have no key. */
export async function startBuiltInSimulator(config: GatewayConfig, options: SimulatorOptions): Promise<SimulatorHandle> {
  const simulated = [
    ...Object.entries(config.providers).filter(([, p]) => p.simulator).map(([name, p]) => describe(`provider ${name}`, p.api_key_env)),
    ...config.search.backends.filter((b) => b.simulator).map((b) => describe(`search backend ${b.id}`, b.api_key_env)),
  ];
  const simulator = loadSimulatorPackage(`${simulated.join(', ')} would be served by the built-in simulator`);
  return simulator.startSimulator({ fixturesDir: recordedFixturesDir(), videoGenerationMs: BUILT_IN_SIMULATOR_VIDEO_GENERATION_MS, ...options });
}

/** The package, or a start-up error that says how to do without it or how to get it. */
export function loadSimulatorPackage(why: string): SimulatorPackage {
  try {
    return require('@model-gateway/simulator') as SimulatorPackage;
  } catch (error) {
    if (!isThisPackageMissing(error)) throw error;
    throw new ProviderConfigError(
      `${why}, but this install does not have it (the package ${PACKAGE_NAME}). ` +
        'Set the missing API keys (or name only keyed providers in GATEWAY_CONFIG), ' +
        'or install the simulator: `npm ci` with its development dependencies in a checkout, ' +
        'or build the Docker image with `--build-arg WITH_SIMULATOR=1`.',
    );
  }
}

function describe(what: string, keyVariable: string | undefined): string {
  return keyVariable ? `${what} (${keyVariable} unset)` : what;
}

/** Only the package itself missing, not a module the package needs. */
function isThisPackageMissing(error: unknown): boolean {
  const { code, message } = error as NodeJS.ErrnoException;
  return code === 'MODULE_NOT_FOUND' && message.includes(`'${PACKAGE_NAME}'`);
}
