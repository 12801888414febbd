import './config/v8-flags';
import 'reflect-metadata';
import { readEnv } from './config/env';
import { ConfigError, loadGatewayConfig } from './config/load-config';
import { ProviderConfigError } from './providers/resolved-provider';
import { loadSimulatorPackage, recordedFixturesDir } from './providers/built-in-simulator';
import { startGateway } from './gateway/start';
import { createLogger } from './observability/logger';
import { runKeysCommand } from './keys/keys-cli';
import { runRollupsCommand } from './billing/usage-rollups-cli';
import { openDatabase } from './db/database';
import { migrate } from './db/migrate';

const USAGE = `usage: gateway <command>
  serve                 start the gateway (default)
  simulator             start the provider simulator alone
  keys create --name N  create an API key [--models a,b] [--expires-at ISO] [--project P] [--member M]
  keys list             list API keys (no secrets)
  keys revoke <id>      revoke an API key
                        (keys: through a running gateway's admin API with --url URL or
                        GATEWAY_URL, or the one on PORT, and GATEWAY_ADMIN_TOKEN;
                        else the database itself, for a stopped gateway)
  migrate               apply database migrations and exit
  rollups check         compare the spend totals' roll-ups with the usage records' sums [--from D] [--to D]
  rollups rebuild       sum the roll-ups of those days again from the records [--from D] [--to D]`;

async function main(argv: string[]): Promise<number> {
  const [command = 'serve', ...rest] = argv;
  const env = readEnv(process.env);
  const logger = createLogger(env.LOG_LEVEL, { service: 'gateway' });
  switch (command) {
    case 'serve': {
      const gateway = await startGateway({ env, rawEnv: process.env, loaded: loadGatewayConfig(process.env), logger, compactHeap: true });
      // The last resort: a rejection nobody handled is a bug to report, not a reason to drop every request in flight.
      process.on('unhandledRejection', (reason) => {
        gateway.services.metrics.unhandledRejections.inc();
        logger.error('unhandled promise rejection; the gateway keeps serving', { err: reason });
      });
      for (const signal of ['SIGTERM', 'SIGINT'] as const) {
        process.once(signal, () => {
          // The hard deadline: whatever still hangs after the grace period, the flush deadline and a margin, the process exits.
          setTimeout(() => {
            logger.error('shutdown did not finish in time; exiting');
            process.exit(1);
          }, env.GATEWAY_SHUTDOWN_GRACE_MS + env.GATEWAY_SHUTDOWN_FLUSH_MS + 20_000).unref();
          gateway.shutdown(signal).then(
            () => process.exit(0),
            (err) => {
              logger.error('shutdown failed', { err });
              process.exit(1);
            },
          );
        });
      }
      return -1;
    }
    case 'simulator': {
      const { runSimulatorFromEnv } = loadSimulatorPackage('the simulator command runs the built-in simulator');
      await runSimulatorFromEnv({ SIMULATOR_FIXTURES_DIR: recordedFixturesDir(), ...process.env });
      return -1;
    }
    case 'keys':
      return runKeysCommand(rest, env);
    case 'rollups':
      return runRollupsCommand(rest, env);
    case 'migrate': {
      const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: `${env.dataDir}/pglite` });
      const result = await migrate(db);
      logger.info('migrations applied', { applied: result.applied });
      await db.close();
      return 0;
    }
    default:
      process.stderr.write(`${USAGE}\n`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err) => {
    if (err instanceof ConfigError || err instanceof ProviderConfigError) {
      process.stderr.write(`gateway: ${err.message}\n`);
    } else {
      process.stderr.write(`gateway: failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
    }
    process.exit(1);
  },
);
