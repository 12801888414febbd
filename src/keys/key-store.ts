import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database';
import type { PrismaClient } from '../generated/prisma/client';
import { hashKeySecret, keyDisplayPrefix, newKeySecret } from './key-secret';
import type { Principal } from './principal';

export interface CreateKeyInput {
  name: string;
  models?: string[];
  expiresAt?: Date | null;
  accountId?: string;
  project?: string;
  member?: string;
}

export interface ApiKeyView {
  id: string;
  object: 'api_key';
  name: string;
  key_prefix: string;
  models: string[];
  account_id: string;
  project_id: string | null;
  member_id: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

export const DEFAULT_ACCOUNT_ID = 'acct_default';

interface KeyRow {
  id: string;
  account_id: string;
  project_id: string | null;
  member_id: string | null;
  name: string;
  allowed_models: string[] | null;
  expires_at: Date | string | null;
  revoked_at: Date | string | null;
}

interface CacheEntry {
  principal: Principal | null;
  until: number;
}

/**
 * API keys, stored as SHA-256 digests. Verified keys (and unknown ones) are
 * cached in memory, by the secret itself, for a short time, so that
 * authenticating a request is neither a database round trip nor a hash; a
 * revocation takes effect at once on this instance and within that time on
 * every other.
 */
export class KeyStore {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly maxCacheEntries = 10_000;

  private readonly prisma: PrismaClient;

  constructor(
    private readonly db: Pick<Database, 'prisma' | 'query'>,
    private readonly cacheMs: number,
  ) {
    this.prisma = db.prisma;
  }

  async authenticate(secret: string, now = Date.now()): Promise<Principal | null> {
    const known = this.cached(secret, now);
    if (known !== undefined) return known;
    const principal = await this.load(hashKeySecret(secret));
    if (this.cache.size >= this.maxCacheEntries) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(secret, { principal, until: now + this.cacheMs });
    return usable(principal, now);
  }

  /** The answer `authenticate` would give from the cache alone: undefined when the key must be looked up. */
  cached(secret: string, now = Date.now()): Principal | null | undefined {
    const entry = this.cache.get(secret);
    return entry && entry.until > now ? usable(entry.principal, now) : undefined;
  }

  /** Straight through the driver: this runs on the request path whenever the cache misses. */
  private async load(hash: string): Promise<Principal | null> {
    const { rows } = await this.db.query<KeyRow>(
      'SELECT "id", "account_id", "project_id", "member_id", "name", "allowed_models", "expires_at", "revoked_at" FROM "api_keys" WHERE "key_hash" = $1',
      [hash],
    );
    const row = rows[0];
    if (!row || row.revoked_at) return null;
    return {
      keyId: row.id,
      accountId: row.account_id,
      projectId: row.project_id,
      memberId: row.member_id,
      keyName: row.name,
      allowedModels: row.allowed_models?.length ? new Set(row.allowed_models) : null,
      expiresAt: row.expires_at ? new Date(row.expires_at) : null,
    };
  }

  /** Creates a key and returns its secret, which is not stored and cannot be shown again. */
  async create(input: CreateKeyInput): Promise<{ key: string; view: ApiKeyView }> {
    const accountId = input.accountId ?? DEFAULT_ACCOUNT_ID;
    if (accountId === DEFAULT_ACCOUNT_ID) {
      // ON CONFLICT rather than an upsert: concurrent first keys must not race on the default account.
      await this.db.query('INSERT INTO "accounts" ("id", "name") VALUES ($1, $2) ON CONFLICT ("id") DO NOTHING', [accountId, 'default']);
    } else if (!(await this.prisma.account.findUnique({ where: { id: accountId } }))) {
      throw new UnknownAccountError(accountId);
    }
    const projectId = input.project ? await this.upsertProject(accountId, input.project) : null;
    const memberId = input.member ? await this.upsertMember(accountId, input.member) : null;
    const key = newKeySecret();
    const row = await this.prisma.apiKey.create({
      data: {
        id: `key_${randomUUID().replace(/-/g, '')}`,
        accountId,
        projectId,
        memberId,
        name: input.name,
        keyHash: hashKeySecret(key),
        keyPrefix: keyDisplayPrefix(key),
        allowedModels: input.models ?? [],
        expiresAt: input.expiresAt ?? null,
      },
    });
    return { key, view: toView(row) };
  }

  async list(): Promise<ApiKeyView[]> {
    const rows = await this.prisma.apiKey.findMany({ orderBy: { createdAt: 'desc' }, take: 1000 });
    return rows.map(toView);
  }

  async revoke(id: string): Promise<ApiKeyView | null> {
    const row = await this.prisma.apiKey.findUnique({ where: { id } });
    if (!row) return null;
    const updated = row.revokedAt ? row : await this.prisma.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
    for (const [secret, entry] of this.cache) if (entry.principal?.keyId === id) this.cache.delete(secret);
    return toView(updated);
  }

  private async upsertProject(accountId: string, name: string): Promise<string> {
    const row = await this.prisma.project.upsert({
      where: { accountId_name: { accountId, name } },
      create: { id: `proj_${randomUUID().replace(/-/g, '')}`, accountId, name },
      update: {},
    });
    return row.id;
  }

  private async upsertMember(accountId: string, name: string): Promise<string> {
    const row = await this.prisma.member.upsert({
      where: { accountId_name: { accountId, name } },
      create: { id: `mem_${randomUUID().replace(/-/g, '')}`, accountId, name },
      update: {},
    });
    return row.id;
  }
}

export class UnknownAccountError extends Error {
  constructor(readonly accountId: string) {
    super(`unknown account "${accountId}"`);
  }
}

function toView(row: {
  id: string; name: string; keyPrefix: string; allowedModels: string[]; accountId: string; projectId: string | null;
  memberId: string | null; expiresAt: Date | null; revokedAt: Date | null; createdAt: Date;
}): ApiKeyView {
  return {
    id: row.id,
    object: 'api_key',
    name: row.name,
    key_prefix: row.keyPrefix,
    models: row.allowedModels,
    account_id: row.accountId,
    project_id: row.projectId,
    member_id: row.memberId,
    expires_at: row.expiresAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

function usable(principal: Principal | null, now: number): Principal | null {
  return principal?.expiresAt && principal.expiresAt.getTime() <= now ? null : principal;
}
