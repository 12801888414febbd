import path from 'node:path';
import { parseArgs } from 'node:util';
import type { GatewayEnv } from '../config/env';
import { openDatabase } from '../db/database';
import { migrate } from '../db/migrate';
import { createLogger } from '../observability/logger';
import { GatewayMetrics } from '../observability/metrics';
import { KeyChangeBus } from './key-change-bus';
import { KeyStore, type ApiKeyView } from './key-store';
import { gatewayAnswers, KeyAdminRequestError, KeysAdminClient, type KeyCreateRequest } from './keys-admin-client';

const USAGE =
  'usage: keys create --name NAME [--models a,b] [--expires-at ISO] [--account A] [--project P] [--member M] | keys list | keys revoke <id>\n' +
  '  [--url URL]  manage the keys of the gateway running at URL through its admin API (GATEWAY_URL works too; needs GATEWAY_ADMIN_TOKEN)';

/** The three key operations, against a running gateway's admin API or the database itself. */
interface KeyOperations {
  create(request: KeyCreateRequest): Promise<ApiKeyView & { key: string }>;
  list(): Promise<ApiKeyView[]>;
  revoke(id: string): Promise<ApiKeyView | null>;
  close(): Promise<void>;
}

/**
 * `npm run keys -- create --name NAME`, `list`, `revoke <id>`: key management
 * from the shell. It goes through a running gateway's admin API when told
 * where (`--url` or `GATEWAY_URL`) or when a gateway answers on the
 * configured port (`PORT`), with `GATEWAY_ADMIN_TOKEN`; otherwise it opens
 * the gateway's database itself (the embedded database allows one process,
 * so that way is for a stopped gateway). Through the database, with
 * `REDIS_URL`, a revocation is published to the running gateways like the
 * admin API's.
 */
export async function runKeysCommand(argv: string[], env: GatewayEnv, rawEnv: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [sub, ...rest] = argv;
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        models: { type: 'string' },
        'expires-at': { type: 'string' },
        account: { type: 'string' },
        project: { type: 'string' },
        member: { type: 'string' },
        url: { type: 'string' },
      },
    });
  } catch (err) {
    return fail(`keys: ${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (sub !== 'create' && sub !== 'list' && sub !== 'revoke') return fail(USAGE);

  let request: KeyCreateRequest | undefined;
  if (sub === 'create') {
    if (!values.name) return fail('keys create: --name is required');
    const expiresAt = values['expires-at'] ? new Date(values['expires-at']) : undefined;
    if (expiresAt && Number.isNaN(expiresAt.getTime())) return fail('keys create: --expires-at must be an ISO date');
    const models = values.models ? values.models.split(',').map((m) => m.trim()).filter(Boolean) : undefined;
    request = { name: values.name, models, expires_at: expiresAt?.toISOString(), account_id: values.account, project: values.project, member: values.member };
  }

  const chosen = await chooseOperations(values.url ?? rawEnv.GATEWAY_URL, env);
  if (typeof chosen === 'string') return fail(chosen);
  try {
    switch (sub) {
      case 'create': {
        const created = await chosen.create(request!);
        process.stdout.write(`${JSON.stringify(created, null, 2)}\n`);
        process.stderr.write('The key is shown only once: store it now.\n');
        return 0;
      }
      case 'list':
        process.stdout.write(`${JSON.stringify(await chosen.list(), null, 2)}\n`);
        return 0;
      case 'revoke': {
        const view = positionals[0] ? await chosen.revoke(positionals[0]) : null;
        if (!view) return fail(`keys revoke: no key "${positionals[0] ?? ''}"`);
        process.stdout.write(`${JSON.stringify(view, null, 2)}\n`);
        return 0;
      }
    }
  } catch (err) {
    if (err instanceof KeyAdminRequestError) return fail(`keys ${sub}: ${err.message}`, 1);
    throw err;
  } finally {
    await chosen.close();
  }
}

/** The admin API of the gateway at `url` (or one found on the configured port), else the database; a string says why neither can be used. */
async function chooseOperations(url: string | undefined, env: GatewayEnv): Promise<KeyOperations | string> {
  const token = env.GATEWAY_ADMIN_TOKEN;
  if (url) {
    if (!token) return `keys: GATEWAY_ADMIN_TOKEN is needed to manage keys through the admin API of ${url}`;
    return throughAdminApi(url, token);
  }
  const local = `http://127.0.0.1:${env.PORT}`;
  if (env.PORT > 0 && (await gatewayAnswers(local))) {
    if (token) return throughAdminApi(local, token);
    // PostgreSQL takes a second process; the embedded database does not.
    if (!env.DATABASE_URL) {
      return `keys: a gateway is running at ${local} on the embedded database, which only it may open: set GATEWAY_ADMIN_TOKEN to go through its admin API, or stop it first`;
    }
  }
  return openDatabaseOperations(env);
}

function throughAdminApi(url: string, token: string): KeyOperations {
  const client = new KeysAdminClient(url, token);
  return { create: (r) => client.create(r), list: () => client.list(), revoke: (id) => client.revoke(id), close: async () => undefined };
}

async function openDatabaseOperations(env: GatewayEnv): Promise<KeyOperations> {
  const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: path.join(env.dataDir, 'pglite') });
  try {
    await migrate(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  const keys = new KeyStore(db, 0);
  return {
    async create(r) {
      const { key, view } = await keys.create({
        name: r.name, models: r.models, expiresAt: r.expires_at ? new Date(r.expires_at) : null, accountId: r.account_id, project: r.project, member: r.member,
      });
      return { ...view, key };
    },
    list: () => keys.list(),
    async revoke(id) {
      // With Redis, the running gateways hear of it within a second, as for DELETE /api/admin/keys/{id}.
      const bus = env.REDIS_URL
        ? KeyChangeBus.throughRedis(env.REDIS_URL, { logger: commandLogger(), metrics: new GatewayMetrics(), cacheMs: env.GATEWAY_KEY_CACHE_MS })
        : undefined;
      try {
        return await (bus ? new KeyStore(db, 0, undefined, bus) : keys).revoke(id);
      } finally {
        await bus?.close();
      }
    },
    close: () => db.close(),
  };
}

/** The command's own warnings go to stderr: its stdout is the JSON it answers, for scripts to parse. */
function commandLogger() {
  return createLogger('warn', {}, (line) => process.stderr.write(line));
}

function fail(message: string, code = 2): number {
  process.stderr.write(`${message}\n`);
  return code;
}
