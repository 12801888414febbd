export interface SimulatorOptions {
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** Port to listen on; 0 picks a free one. Default 0. */
  port?: number;
  /** Milliseconds before the first byte of every answer. Default 0. */
  latencyMs?: number;
  /** Milliseconds between two events of a stream. Default 0. */
  paceMs?: number;
  /** Characters of answer text (or tool arguments) per stream chunk. Default 16. */
  chunkSize?: number;
  /** Folder of recorded responses, one subfolder per protocol, for `[sim replay=NAME]`. Default none: every answer is generated. */
  fixturesDir?: string;
  /** How many received requests `GET /_sim/requests` keeps. Default 200. */
  requestLogSize?: number;
  /** Largest request body accepted, in bytes. Default 32 MiB, room for a few inline images. */
  maxBodyBytes?: number;
  /** Milliseconds a simulated video generation takes, unless a prompt's `[sim gen_ms=N]` says otherwise. Default 1500. */
  videoGenerationMs?: number;
}

export type ResolvedSimulatorOptions = Required<Omit<SimulatorOptions, 'fixturesDir'>> & { fixturesDir: string | undefined };

export function resolveSimulatorOptions(options: SimulatorOptions = {}): ResolvedSimulatorOptions {
  return {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    latencyMs: options.latencyMs ?? 0,
    paceMs: options.paceMs ?? 0,
    chunkSize: Math.max(1, options.chunkSize ?? 16),
    fixturesDir: options.fixturesDir,
    requestLogSize: options.requestLogSize ?? 200,
    maxBodyBytes: options.maxBodyBytes ?? 32 * 1024 * 1024,
    videoGenerationMs: options.videoGenerationMs ?? 1500,
  };
}

/**
 * Options from the environment, for the simulator run as its own process
 * (the benchmark's upstream). Unset variables keep their defaults; a
 * malformed number stops the start-up instead of being ignored.
 */
export function simulatorOptionsFromEnv(env: NodeJS.ProcessEnv): SimulatorOptions {
  const { SIMULATOR_HOST: host, SIMULATOR_FIXTURES_DIR: fixturesDir } = env;
  const options: SimulatorOptions = { port: 8090 };
  if (host) options.host = host;
  assignNumber(options, 'port', env, 'SIMULATOR_PORT');
  assignNumber(options, 'latencyMs', env, 'SIMULATOR_LATENCY_MS');
  assignNumber(options, 'paceMs', env, 'SIMULATOR_PACE_MS');
  assignNumber(options, 'chunkSize', env, 'SIMULATOR_CHUNK_SIZE');
  assignNumber(options, 'requestLogSize', env, 'SIMULATOR_REQUEST_LOG_SIZE');
  assignNumber(options, 'videoGenerationMs', env, 'SIMULATOR_VIDEO_GENERATION_MS');
  if (fixturesDir) options.fixturesDir = fixturesDir;
  return options;
}

type NumericOption = 'port' | 'latencyMs' | 'paceMs' | 'chunkSize' | 'requestLogSize' | 'videoGenerationMs';

function assignNumber(options: SimulatorOptions, key: NumericOption, env: NodeJS.ProcessEnv, variable: string): void {
  const raw = env[variable];
  if (raw === undefined || raw === '') return;
  if (!/^\d+$/.test(raw)) throw new Error(`${variable} must be a non-negative integer, got '${raw}'`);
  options[key] = Number(raw);
}
