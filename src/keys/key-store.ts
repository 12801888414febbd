import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Database } from '../db/database';
import { GatewayError } from '../errors/gateway-error';
import { Prisma, type PrismaClient } from '../generated/prisma/client';
import { NO_OTHER_INSTANCES, type KeyChangeNotifier } from './key-change';
import { hashKeySecret, keyDisplayPrefix, mayBeKeySecret, newKeySecret } from './key-secret';
import type { Principal } from './principal';
import { intersectDomains, intersectModels } from './credential-scope';
import { mcpToolScope } from './mcp-tool-scope';
import { AccountStore, DEFAULT_ACCOUNT_ID } from './account-store';

export interface CreateKeyInput {
  name: string;
  models?: string[];
  expiresAt?: Date | null;
  accountId?: string;
  project?: string;
  member?: string;
  /** Search result domains the key may receive (a domain covers its subdomains); none: every domain. */
  allowedDomains?: string[];
  /** MCP tool names or patterns (`weather__*`) the key may use; null or absent: every tool. */
  mcpTools?: string[] | null;
}

/** What an operator may change of a key; a field left out stays as it is. */
export interface KeyChange {
  models?: string[];
  allowedDomains?: string[];
  /** null: every tool. */
  mcpTools?: string[] | null;
}

export interface ApiKeyView {
  id: string;
  object: 'api_key';
  name: string;
  key_prefix: string;
  models: string[];
  /** The key's search domain allowlist; empty: every domain. */
  allowed_domains: string[];
  /** MCP tool names or patterns the key may use through `/mcp`; null: every tool, `[]`: none. */
  mcp_tools: string[] | null;
  account_id: string;
  project_id: string | null;
  member_id: string | null;
  /** The key that minted it, for a temporary credential; null for a key the operator made. */
  parent_key_id: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

/** What a listing shows of the key that made a request: never the secret, only its first characters. */
export interface KeySummary {
  id: string;
  name: string;
  keyPrefix: string;
  /** The key that minted it, for a temporary credential. */
  parentKeyId: string | null;
}

export { DEFAULT_ACCOUNT_ID } from './account-store';

interface KeyRow {
  id: string;
  account_id: string;
  project_id: string | null;
  member_id: string | null;
  name: string;
  allowed_models: string[] | null;
  expires_at: Date | string | null;
  revoked_at: Date | string | null;
  parent_key_id: string | null;
  allowed_domains: string[] | null;
  parent_revoked_at: Date | string | null;
  parent_expires_at: Date | string | null;
  parent_allowed_models: string[] | null;
  parent_allowed_domains: string[] | null;
  allowed_mcp_tools: string[] | null;
  parent_allowed_mcp_tools: string[] | null;
  spend_controlled: boolean;
}

interface CachedKey {
  principal: Principal;
  until: number;
}

/** How many keys the in-memory caches hold. */
export interface KeyCacheLimits {
  /** Keys found in the database, unrevoked (expired ones too, refused from memory), by secret. */
  maxCachedKeys: number;
  /** Refused secrets (unknown or revoked), by digest: a separate, smaller bound, so bogus keys never evict real ones. */
  maxCachedRefusals: number;
}

/** How long after its cache entry ran out a verified key is still admitted while the database cannot be asked. */
export const STALE_WHILE_UNREACHABLE_MS = 60 * 60_000;

export const DEFAULT_KEY_CACHE_LIMITS: KeyCacheLimits = { maxCachedKeys: 10_000, maxCachedRefusals: 1_000 };

/**
 * API keys, stored as SHA-256 digests. Keys are cached in memory for a
 * short time, so that authenticating a request is not a database round
 * trip. A revocation takes effect at once on this instance; the other
 * instances hear of it through the `KeyChangeNotifier` (Redis: within
 * milliseconds) and call `forget`, and one that does not hear of it (Redis
 * down) drops the key when its cache time runs out.
 *
 * Two caches, with separate bounds:
 * - keys found in the database, by the secret itself, so that a key seen
 *   lately is admitted from memory without hashing it (a Map lookup against
 *   about a microsecond of SHA-256 on every request). Only secrets whose
 *   digest is in the database get here, so a client cannot fill it;
 * - refused secrets, by their digest: whatever a client sends as a key is
 *   never kept, and a flood of bogus keys only churns this small cache.
 * A bearer string longer than any key is refused before either cache and
 * before hashing.
 */
export class KeyStore {
  private readonly keys = new Map<string, CachedKey>();
  private readonly refusals = new Map<string, number>();
  /**
   * When each key was last forgotten, on a logical clock that ticks once per
   * `forget`. A lookup that started before a key was forgotten may have read
   * it as it was before the change (on this instance or another); its answer
   * is given to its own request but never cached. Only lookups in flight need
   * these, so they are cleared whenever none is; past the bound the oldest go,
   * and `forgottenFloor` keeps their tick so that nothing is cached against them.
   */
  private readonly forgottenAt = new Map<string, number>();
  private forgottenFloor = 0;
  private clock = 0;
  private lookupsInFlight = 0;

  private readonly prisma: PrismaClient;
  private readonly accounts: AccountStore;

  constructor(
    private readonly db: Pick<Database, 'prisma' | 'query'>,
    private readonly cacheMs: number,
    private readonly limits: KeyCacheLimits = DEFAULT_KEY_CACHE_LIMITS,
    private readonly changes: KeyChangeNotifier = NO_OTHER_INSTANCES,
  ) {
    this.prisma = db.prisma;
    this.accounts = new AccountStore(db);
  }

  async authenticate(secret: string, now = Date.now()): Promise<Principal | null> {
    const known = this.cached(secret, now);
    if (known !== undefined) return known;
    const digest = hashKeySecret(secret);
    if (this.refusedLately(digest, now)) return null;
    const startedAt = this.clock;
    this.lookupsInFlight++;
    let principal: Principal | null;
    try {
      principal = await this.load(digest);
    } catch {
      return this.whileUnreachable(secret, now);
    } finally {
      this.lookupsInFlight--;
    }
    if (!principal) this.rememberRefusal(digest, now);
    else if (!this.forgottenSince(principal.keyId, startedAt) && !(principal.parentKeyId && this.forgottenSince(principal.parentKeyId, startedAt))) {
      this.rememberKey(secret, principal, now);
    }
    if (this.lookupsInFlight === 0) this.forgottenAt.clear();
    return usable(principal, now);
  }

  /**
   * Drops the key from the cache, and keeps any lookup in flight now from
   * putting it back: its state changed (here or on another instance), and
   * the next request reads it again from the database.
   */
  forget(keyId: string): void {
    // A key's temporary credentials go with it: they end when it is revoked.
    for (const [secret, entry] of this.keys) if (entry.principal.keyId === keyId || entry.principal.parentKeyId === keyId) this.keys.delete(secret);
    this.clock++;
    if (this.lookupsInFlight === 0) return;
    this.forgottenAt.delete(keyId);
    this.forgottenAt.set(keyId, this.clock);
    if (this.forgottenAt.size > this.limits.maxCachedKeys) {
      const [oldest, tick] = this.forgottenAt.entries().next().value!;
      this.forgottenAt.delete(oldest);
      this.forgottenFloor = tick;
    }
  }

  /**
   * The answer `authenticate` would give without hashing or a lookup:
   * null for a string too long to be a key, the principal of a key seen
   * lately, undefined when the key must be looked up.
   */
  cached(secret: string, now = Date.now()): Principal | null | undefined {
    if (!mayBeKeySecret(secret)) return null;
    const entry = this.keys.get(secret);
    return entry && entry.until > now ? usable(entry.principal, now) : undefined;
  }

  /**
   * The database cannot be asked: a key verified within the last hour is
   * still admitted (its expiry still applies, and a revocation heard from
   * any instance has already dropped it), so an outage does not lock out
   * the clients being served; any other key is refused with a 503 to retry.
   */
  private whileUnreachable(secret: string, now: number): Principal | null {
    const known = this.keys.get(secret);
    if (known && known.until + STALE_WHILE_UNREACHABLE_MS > now) return usable(known.principal, now);
    throw new GatewayError('key_check_unavailable', 'The API key could not be checked (the database did not answer). Retry in a moment.', { retryAfterSeconds: 2 });
  }

  private forgottenSince(keyId: string, tick: number): boolean {
    return Math.max(this.forgottenFloor, this.forgottenAt.get(keyId) ?? 0) > tick;
  }

  /** How many entries each cache holds (for tests and diagnostics). */
  cacheSizes(): { keys: number; refusals: number } {
    return { keys: this.keys.size, refusals: this.refusals.size };
  }

  private rememberKey(secret: string, principal: Principal, now: number): void {
    this.keys.delete(secret);
    if (this.keys.size >= this.limits.maxCachedKeys) this.keys.delete(this.keys.keys().next().value!);
    this.keys.set(secret, { principal, until: now + this.cacheMs });
  }

  /** Least recently used first out: a client retrying one bad key stays refused from memory through a flood of others. */
  private refusedLately(digest: string, now: number): boolean {
    const until = this.refusals.get(digest);
    if (until === undefined) return false;
    this.refusals.delete(digest);
    if (until <= now) return false;
    this.refusals.set(digest, until);
    return true;
  }

  private rememberRefusal(digest: string, now: number): void {
    if (this.cacheMs <= 0) return;
    this.refusals.delete(digest);
    if (this.refusals.size >= this.limits.maxCachedRefusals) this.refusals.delete(this.refusals.keys().next().value!);
    this.refusals.set(digest, now + this.cacheMs);
  }

  /** Straight through the driver: this runs on the request path whenever the cache misses. */
  private async load(hash: string): Promise<Principal | null> {
    const { rows } = await this.db.query<KeyRow>(
      'SELECT k."id", k."account_id", k."project_id", k."member_id", k."name", k."allowed_models", k."expires_at", k."revoked_at", ' +
        'k."parent_key_id", k."allowed_domains", p."revoked_at" AS "parent_revoked_at", p."expires_at" AS "parent_expires_at", ' +
        'p."allowed_models" AS "parent_allowed_models", p."allowed_domains" AS "parent_allowed_domains", ' +
        'k."allowed_mcp_tools", p."allowed_mcp_tools" AS "parent_allowed_mcp_tools", ' +
        'EXISTS (SELECT 1 FROM "wallets" w WHERE w."account_id" = k."account_id") AS "spend_controlled" ' +
        'FROM "api_keys" k LEFT JOIN "api_keys" p ON p."id" = k."parent_key_id" WHERE k."key_hash" = $1',
      [hash],
    );
    const row = rows[0];
    // A temporary credential ends with its parent, and is never wider than the parent is now: its scope is the
    // intersection of its own and its parent's current one, read again whenever the parent changes (`forget`).
    if (!row || row.revoked_at || row.parent_revoked_at) return null;
    return {
      keyId: row.id,
      accountId: row.account_id,
      projectId: row.project_id,
      memberId: row.member_id,
      keyName: row.name,
      allowedModels: intersectModels(listed(row.allowed_models), listed(row.parent_allowed_models)),
      expiresAt: earliest(row.expires_at, row.parent_expires_at),
      parentKeyId: row.parent_key_id,
      allowedDomains: intersectDomains(listed(row.allowed_domains), listed(row.parent_allowed_domains)),
      mcpTools: mcpToolScope(row.allowed_mcp_tools, row.parent_key_id ? row.parent_allowed_mcp_tools : null),
      spendControlled: row.spend_controlled,
    };
  }

  /** Creates a key and returns its secret, which is not stored and cannot be shown again. */
  async create(input: CreateKeyInput): Promise<{ key: string; view: ApiKeyView }> {
    const accountId = input.accountId ?? DEFAULT_ACCOUNT_ID;
    if (accountId === DEFAULT_ACCOUNT_ID) await this.accounts.ensureDefault();
    else if (!(await this.accounts.exists(accountId))) throw new UnknownAccountError(accountId);
    const projectId = input.project ? (await this.accounts.project(accountId, input.project)).id : null;
    const memberId = input.member ? (await this.accounts.member(accountId, input.member)).id : null;
    const key = newKeySecret();
    // In SQL rather than through Prisma: creating a key is the one admin write every deployment makes, and
    // Prisma's query compiler (some 30 MB) then stays unloaded on an instance that serves requests.
    const tools = storedToolList(input.mcpTools);
    const { rows } = await this.db.query<KeyViewRow>(
      'INSERT INTO "api_keys" ("id", "account_id", "project_id", "member_id", "name", "key_hash", "key_prefix", "allowed_models", "allowed_domains", "allowed_mcp_tools", "expires_at") ' +
        'VALUES ($1, $2, $3, $4, $5, $6, $7, $8::text[], $9::text[], $10::jsonb, $11) RETURNING ' + KEY_VIEW_COLUMNS,
      [
        `key_${randomUUID().replace(/-/g, '')}`, accountId, projectId, memberId, input.name, hashKeySecret(key), keyDisplayPrefix(key),
        input.models ?? [], [...new Set(input.allowedDomains ?? [])], tools === Prisma.DbNull ? null : JSON.stringify(tools), input.expiresAt ?? null,
      ],
    );
    const row = rows[0]!;
    return { key, view: toView(row) };
  }

  /**
   * Replaces what the change names of the key: its models (empty: every
   * model) and its search domain allowlist (empty: every domain), here at
   * once and on the other instances as soon as they hear of it, as a
   * revocation is. Its temporary credentials keep their own lists, and are
   * held to the intersection with these from their next request on.
   */
  async update(id: string, change: KeyChange): Promise<ApiKeyView | null> {
    const row = await this.prisma.apiKey.findUnique({ where: { id } });
    if (!row) return null;
    const updated = await this.prisma.apiKey.update({
      where: { id },
      data: {
        ...(change.models && { allowedModels: [...new Set(change.models)] }),
        ...(change.allowedDomains && { allowedDomains: [...new Set(change.allowedDomains)] }),
        ...(change.mcpTools !== undefined && { allowedMcpTools: storedToolList(change.mcpTools) }),
      },
    });
    this.forget(id);
    await this.changes.keyChanged({ kind: 'key_changed', key_id: id });
    return toView(updated);
  }

  /** The keys of these ids in the account, in one statement; a key of another account is left out like a missing one. */
  async summaries(accountId: string, ids: readonly string[]): Promise<KeySummary[]> {
    return this.prisma.apiKey.findMany({
      where: { accountId, id: { in: [...new Set(ids)] } },
      select: { id: true, name: true, keyPrefix: true, parentKeyId: true },
    });
  }

  async list(): Promise<ApiKeyView[]> {
    const rows = await this.prisma.apiKey.findMany({ orderBy: { createdAt: 'desc' }, take: 1000 });
    return rows.map(toView);
  }

  /**
   * Revokes the key in the database, then drops it here and tells the other
   * instances. Revoking a revoked key tells them again (a retry after Redis
   * was down reaches them).
   */
  async revoke(id: string): Promise<ApiKeyView | null> {
    // One statement in SQL: a revocation should take effect at once, not after Prisma's query compiler loads.
    const { rows } = await this.db.query<KeyViewRow & { keyHash: string }>(
      'UPDATE "api_keys" SET "revoked_at" = coalesce("revoked_at", now()) WHERE "id" = $1 RETURNING ' + KEY_VIEW_COLUMNS + ', "key_hash" AS "keyHash"',
      [id],
    );
    const row = rows[0];
    if (!row) return null;
    // After the update: a lookup still in flight (it may have read the key unrevoked) will not cache it,
    // and one that finished already is swept out here.
    this.forget(id);
    this.rememberRefusal(row.keyHash, Date.now());
    await this.changes.keyChanged({ kind: 'key_changed', key_id: id });
    return toView(row);
  }


  /**
   * Something every key of the account carries changed (it came under spend
   * control): its keys are read again, here at once and on the other
   * instances as soon as they hear of it.
   */
  async accountChanged(accountId: string): Promise<void> {
    const rows = await this.prisma.apiKey.findMany({ where: { accountId, revokedAt: null }, select: { id: true }, take: MAX_KEYS_TOLD });
    for (const { id } of rows) this.forget(id);
    await Promise.all(rows.map(({ id }) => this.changes.keyChanged({ kind: 'key_changed', key_id: id })));
  }
}

/** At most this many keys of one account are told of a change to it one by one; past it, their caches run out. */
const MAX_KEYS_TOLD = 10_000;

export class UnknownAccountError extends Error {
  constructor(readonly accountId: string) {
    super(`unknown account "${accountId}"`);
  }
}

/** A key's row as its view reads it (Prisma's field names; KEY_VIEW_COLUMNS selects them so in SQL). */
interface KeyViewRow {
  id: string; name: string; keyPrefix: string; allowedModels: string[]; allowedDomains: string[]; allowedMcpTools: Prisma.JsonValue; accountId: string; projectId: string | null;
  memberId: string | null; parentKeyId: string | null; expiresAt: Date | null; revokedAt: Date | null; createdAt: Date;
}

const KEY_VIEW_COLUMNS =
  '"id", "name", "key_prefix" AS "keyPrefix", coalesce("allowed_models", ARRAY[]::text[]) AS "allowedModels", "allowed_domains" AS "allowedDomains", ' +
  '"allowed_mcp_tools" AS "allowedMcpTools", "account_id" AS "accountId", "project_id" AS "projectId", "member_id" AS "memberId", ' +
  '"parent_key_id" AS "parentKeyId", "expires_at" AS "expiresAt", "revoked_at" AS "revokedAt", "created_at" AS "createdAt"';

function toView(row: KeyViewRow): ApiKeyView {
  return {
    id: row.id,
    object: 'api_key',
    name: row.name,
    key_prefix: row.keyPrefix,
    models: row.allowedModels,
    allowed_domains: row.allowedDomains,
    mcp_tools: toolListColumn.parse(row.allowedMcpTools),
    account_id: row.accountId,
    project_id: row.projectId,
    member_id: row.memberId,
    parent_key_id: row.parentKeyId,
    expires_at: row.expiresAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/** `allowed_mcp_tools` is a JSON array of patterns, or NULL for every tool (a list column cannot tell none from all). */
const toolListColumn = z.array(z.string()).nullable();

function storedToolList(patterns: string[] | null | undefined): string[] | typeof Prisma.DbNull {
  return patterns ? [...new Set(patterns)] : Prisma.DbNull;
}

function earliest(a: Date | string | null, b: Date | string | null): Date | null {
  const dates = [a, b].filter((d): d is Date | string => d !== null).map((d) => new Date(d));
  return dates.length ? new Date(Math.min(...dates.map((d) => d.getTime()))) : null;
}

/** A stored list as a set; empty or absent (no parent) means no restriction. */
function listed(values: string[] | null): ReadonlySet<string> | null {
  return values?.length ? new Set(values) : null;
}

function usable(principal: Principal | null, now: number): Principal | null {
  return principal?.expiresAt && principal.expiresAt.getTime() <= now ? null : principal;
}
