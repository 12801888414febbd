import { spawnGateway, type GatewayProcess } from './gateway-process';
import { createTestDatabase } from './postgres-database';

/** Gateway processes sharing one PostgreSQL database, for tests of what must hold across instances. */
export interface InstancesOnOneDatabase {
  /** Starts a gateway on the shared database (DATABASE_URL is set; the rest comes from `env`). */
  spawn(env: Record<string, string>): Promise<GatewayProcess>;
  /** Stops one instance early (SIGTERM, as a restart does, unless another signal is named: SIGKILL for a crash). */
  stop(instance: GatewayProcess, signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Registers the describe block's hooks: a fresh PostgreSQL database before
 * its tests; after them, every instance still running stopped and the
 * database dropped.
 */
export function instancesOnOneDatabase(): InstancesOnOneDatabase {
  let db: { url: string; drop(): Promise<void> } | undefined;
  const running = new Set<GatewayProcess>();
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await Promise.all([...running].map((instance) => instance.kill('SIGTERM')));
    await db?.drop();
  });
  return {
    async spawn(env) {
      const instance = await spawnGateway({ ...env, DATABASE_URL: db!.url });
      running.add(instance);
      return instance;
    },
    async stop(instance, signal = 'SIGTERM') {
      running.delete(instance);
      await instance.kill(signal);
    },
  };
}
