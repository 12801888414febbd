import { simulatorOptionsFromEnv } from './options';
import { type SimulatorHandle, startSimulator } from './server';

/**
 * The simulator as its own process (the benchmark's upstream, or a manual
 * demo): options from the environment (`SIMULATOR_PORT` default 8090,
 * `SIMULATOR_HOST` default 127.0.0.1, `SIMULATOR_LATENCY_MS`,
 * `SIMULATOR_PACE_MS`, `SIMULATOR_CHUNK_SIZE`, `SIMULATOR_REQUEST_LOG_SIZE`, `SIMULATOR_VIDEO_GENERATION_MS`,
 * `SIMULATOR_FIXTURES_DIR`), one JSON line with its URL once listening, a
 * clean close on SIGTERM or SIGINT.
 */
export async function runSimulatorFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  writeLine: (line: string) => void = (line) => process.stdout.write(line + '\n'),
): Promise<SimulatorHandle> {
  const simulator = await startSimulator(simulatorOptionsFromEnv(env));
  writeLine(JSON.stringify({ event: 'simulator_listening', url: simulator.url }));
  const close = async () => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    await simulator.close();
  };
  const onSignal = () => void close();
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  return { ...simulator, close };
}

if (require.main === module) {
  runSimulatorFromEnv().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
