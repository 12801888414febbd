import path from 'node:path';
import { parseArgs } from 'node:util';
import type { GatewayEnv } from '../config/env';
import { openDatabase } from '../db/database';
import { migrate } from '../db/migrate';
import { createLogger } from '../observability/logger';
import { GatewayMetrics } from '../observability/metrics';
import { KeyChangeBus } from './key-change-bus';
import { KeyStore } from './key-store';

/**
 * `npm run keys -- create --name NAME`, `list`, `revoke <id>`: key management
 * from the shell, against the same database as the gateway. With the embedded
 * database, run it while the gateway is stopped (PGlite allows one process);
 * while it runs, use `POST /api/admin/keys`. With `REDIS_URL`, a revocation
 * is published to the running gateways like the admin API's.
 */
export async function runKeysCommand(argv: string[], env: GatewayEnv): Promise<number> {
  const [sub, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      models: { type: 'string' },
      'expires-at': { type: 'string' },
      account: { type: 'string' },
      project: { type: 'string' },
      member: { type: 'string' },
    },
  });
  const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: path.join(env.dataDir, 'pglite') });
  try {
    await migrate(db);
    const keys = new KeyStore(db, 0);
    switch (sub) {
      case 'create': {
        if (!values.name) return fail('keys create: --name is required');
        const expiresAt = values['expires-at'] ? new Date(values['expires-at']) : null;
        if (expiresAt && Number.isNaN(expiresAt.getTime())) return fail('keys create: --expires-at must be an ISO date');
        const models = values.models ? values.models.split(',').map((m) => m.trim()).filter(Boolean) : undefined;
        const { key, view } = await keys.create({ name: values.name, models, expiresAt, accountId: values.account, project: values.project, member: values.member });
        process.stdout.write(`${JSON.stringify({ ...view, key }, null, 2)}\n`);
        process.stderr.write('The key is shown only once: store it now.\n');
        return 0;
      }
      case 'list':
        process.stdout.write(`${JSON.stringify(await keys.list(), null, 2)}\n`);
        return 0;
      case 'revoke': {
        // With Redis, the running gateways hear of it within a second, as for DELETE /api/admin/keys/{id}.
        const bus = env.REDIS_URL
          ? KeyChangeBus.throughRedis(env.REDIS_URL, { logger: createLogger('warn'), metrics: new GatewayMetrics(), cacheMs: env.GATEWAY_KEY_CACHE_MS })
          : undefined;
        try {
          const revoking = bus ? new KeyStore(db, 0, undefined, bus) : keys;
          const view = positionals[0] ? await revoking.revoke(positionals[0]) : null;
          if (!view) return fail(`keys revoke: no key "${positionals[0] ?? ''}"`);
          process.stdout.write(`${JSON.stringify(view, null, 2)}\n`);
          return 0;
        } finally {
          await bus?.close();
        }
      }
      default:
        return fail('usage: keys create --name NAME [--models a,b] [--expires-at ISO] [--project P] [--member M] | keys list | keys revoke <id>');
    }
  } finally {
    await db.close();
  }
}

function fail(message: string): number {
  process.stderr.write(`${message}\n`);
  return 2;
}
