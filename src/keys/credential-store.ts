import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client';
import { Errors } from '../errors/errors';
import { GatewayError } from '../errors/gateway-error';
import { hashKeySecret, keyDisplayPrefix, newKeySecret } from './key-secret';
import type { KeyStore } from './key-store';
import type { Principal } from './principal';
import { coveredByScope } from './mcp-tool-scope';

/** The longest a temporary credential may live, and how long it lives when the request does not say. */
export const MAX_CREDENTIAL_SECONDS = 7 * 24 * 60 * 60;
export const DEFAULT_CREDENTIAL_SECONDS = 60 * 60;
/** Live credentials one key may hold at once: each is a key, and keys are cached. */
export const MAX_LIVE_CREDENTIALS = 1_000;

export interface MintInput {
  name?: string;
  expiresInSeconds: number;
  models?: string[];
  allowedDomains?: string[];
  /** MCP tools (names or patterns); absent: those its parent may use. */
  mcpTools?: string[];
}

export interface CredentialView {
  id: string;
  object: 'credential';
  name: string;
  key_prefix: string;
  parent_key_id: string;
  /** Models it may use; empty means every model its parent may use. */
  models: string[];
  /** Search result domains; empty means every domain its parent may receive. */
  allowed_domains: string[];
  /** MCP tools it may use (within its parent's); null: those its parent may use. */
  mcp_tools: string[] | null;
  expires_at: string;
  revoked_at: string | null;
  created_at: string;
}

interface CredentialRow {
  id: string;
  name: string;
  keyPrefix: string;
  parentKeyId: string | null;
  allowedModels: string[];
  allowedDomains: string[];
  allowedMcpTools: unknown;
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}

/**
 * Temporary credentials: keys a key mints for itself, for a browser, a job or
 * a contractor, that authenticate like keys and are never wider than their
 * parent: no model it may not use, no domain it may not receive, an expiry no
 * later than its own (and at most 7 days), and the parent's account, project,
 * member and budgets (a budget of the credential's own comes on top). A
 * credential cannot mint credentials; revoking the parent revokes them all.
 */
export class CredentialStore {
  private readonly prisma: PrismaClient;

  constructor(
    db: { prisma: PrismaClient },
    private readonly keys: Pick<KeyStore, 'revoke'>,
  ) {
    this.prisma = db.prisma;
  }

  async mint(parent: Principal, input: MintInput, now = Date.now()): Promise<{ key: string; view: CredentialView }> {
    if (parent.parentKeyId !== null) throw new GatewayError('credential_not_allowed', 'A temporary credential cannot mint credentials; use the key that minted it.');
    const models = input.models ?? [];
    if (parent.allowedModels && !models.length) throw Errors.validation('models', `must be given: the key may use only ${[...parent.allowedModels].join(', ')}, and a credential is never wider.`);
    const wider = parent.allowedModels ? models.filter((m) => !parent.allowedModels!.has(m)) : [];
    if (wider.length) throw Errors.validation('models', `names ${wider.join(', ')}, which the key itself may not use.`);
    const domains = (input.allowedDomains ?? []).map((d) => d.toLowerCase());
    if (parent.allowedDomains && !domains.length) throw Errors.validation('allowed_domains', 'must be given: the key has a domain allowlist, and a credential is never wider.');
    const outside = parent.allowedDomains ? domains.filter((d) => !parent.allowedDomains!.has(d)) : [];
    if (outside.length) throw Errors.validation('allowed_domains', `names ${outside.join(', ')}, outside the key's own allowlist.`);
    const beyond = (input.mcpTools ?? []).filter((pattern) => !coveredByScope(parent.mcpTools, pattern));
    if (beyond.length) throw Errors.validation('mcp_tools', `names ${beyond.join(', ')}, beyond the MCP tools the key itself may use.`);
    const wanted = now + input.expiresInSeconds * 1000;
    const expiresAt = new Date(parent.expiresAt ? Math.min(wanted, parent.expiresAt.getTime()) : wanted);
    const live = await this.prisma.apiKey.count({ where: { parentKeyId: parent.keyId, revokedAt: null, expiresAt: { gt: new Date(now) } } });
    if (live >= MAX_LIVE_CREDENTIALS) throw Errors.validation('', `The key already has ${live} live credentials; revoke some (DELETE /api/credentials/{id}) first.`);
    const key = newKeySecret();
    const row = await this.prisma.apiKey.create({
      data: {
        id: `key_${randomUUID().replace(/-/g, '')}`,
        accountId: parent.accountId,
        projectId: parent.projectId,
        memberId: parent.memberId,
        parentKeyId: parent.keyId,
        name: input.name ?? `${parent.keyName} (temporary)`,
        keyHash: hashKeySecret(key),
        keyPrefix: keyDisplayPrefix(key),
        allowedModels: models,
        allowedDomains: [...new Set(domains)],
        ...(input.mcpTools && { allowedMcpTools: [...new Set(input.mcpTools)] }),
        expiresAt,
      },
    });
    return { key, view: credentialView(row) };
  }

  /** The key's credentials, newest first (revoked and expired ones too, for a while). */
  async list(parentKeyId: string): Promise<CredentialView[]> {
    const rows = await this.prisma.apiKey.findMany({ where: { parentKeyId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: MAX_LIVE_CREDENTIALS });
    return rows.map(credentialView);
  }

  /** Revokes one of the key's credentials on every instance; null when the key has no such credential. */
  async revoke(parentKeyId: string, id: string): Promise<CredentialView | null> {
    const row = await this.prisma.apiKey.findFirst({ where: { id, parentKeyId } });
    if (!row) return null;
    await this.keys.revoke(id);
    const revoked = await this.prisma.apiKey.findUnique({ where: { id } });
    return credentialView(revoked ?? row);
  }
}

function credentialView(row: CredentialRow): CredentialView {
  return {
    id: row.id,
    object: 'credential',
    name: row.name,
    key_prefix: row.keyPrefix,
    parent_key_id: row.parentKeyId!,
    models: row.allowedModels,
    allowed_domains: row.allowedDomains,
    mcp_tools: Array.isArray(row.allowedMcpTools) ? row.allowedMcpTools.map(String) : null,
    expires_at: row.expiresAt!.toISOString(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}
