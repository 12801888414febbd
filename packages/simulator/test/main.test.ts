import { runSimulatorFromEnv } from '../src/main';
import { simulatorOptionsFromEnv } from '../src/options';
import { AUTH } from './simulator-test-kit';

describe('simulatorOptionsFromEnv', () => {
  it('defaults to port 8090 and reads the knobs', () => {
    expect(simulatorOptionsFromEnv({})).toEqual({ port: 8090 });
    expect(
      simulatorOptionsFromEnv({
        SIMULATOR_HOST: '0.0.0.0',
        SIMULATOR_PORT: '9000',
        SIMULATOR_LATENCY_MS: '30',
        SIMULATOR_PACE_MS: '5',
        SIMULATOR_CHUNK_SIZE: '4',
        SIMULATOR_REQUEST_LOG_SIZE: '10',
        SIMULATOR_FIXTURES_DIR: '/tmp/recorded',
      }),
    ).toEqual({ host: '0.0.0.0', port: 9000, latencyMs: 30, paceMs: 5, chunkSize: 4, requestLogSize: 10, fixturesDir: '/tmp/recorded' });
  });

  it('refuses a malformed number', () => {
    expect(() => simulatorOptionsFromEnv({ SIMULATOR_PACE_MS: 'fast' })).toThrow('SIMULATOR_PACE_MS');
  });
});

describe('runSimulatorFromEnv', () => {
  it('starts, announces its URL in one JSON line, applies the env knobs, and closes', async () => {
    const lines: string[] = [];
    const sigtermListeners = process.listenerCount('SIGTERM');
    const simulator = await runSimulatorFromEnv({ SIMULATOR_PORT: '0', SIMULATOR_LATENCY_MS: '100' }, (line) => lines.push(line));
    try {
      expect(lines.map((line) => JSON.parse(line))).toEqual([{ event: 'simulator_listening', url: simulator.url }]);
      const started = Date.now();
      const response = await fetch(`${simulator.url}/v1/chat/completions`, {
        method: 'POST',
        headers: AUTH,
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] }),
      });
      expect(response.status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    } finally {
      await simulator.close();
    }
    expect(process.listenerCount('SIGTERM')).toBe(sigtermListeners);
  });
});
