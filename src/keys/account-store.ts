import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database';
import type { PrismaClient } from '../generated/prisma/client';

export const DEFAULT_ACCOUNT_ID = 'acct_default';

export interface AccountView {
  id: string;
  object: 'account';
  name: string;
  created_at: string;
}

export interface OwnerView {
  id: string;
  object: 'project' | 'member';
  account_id: string;
  name: string;
  created_at: string;
}

export interface AccountDetail extends AccountView {
  projects: OwnerView[];
  members: OwnerView[];
  /** Keys of the account that are not revoked. */
  active_keys: number;
}

/**
 * Accounts and what keys are grouped by within one: projects and members.
 * Projects and members are named per account and made on first use, so a
 * key created "for project X" and one created later for the same name share
 * it.
 */
export class AccountStore {
  private readonly prisma: PrismaClient;

  constructor(private readonly db: Pick<Database, 'prisma' | 'query'>) {
    this.prisma = db.prisma;
  }

  async create(name: string): Promise<AccountView> {
    const row = await this.prisma.account.create({ data: { id: `acct_${randomUUID().replace(/-/g, '')}`, name } });
    return accountView(row);
  }

  /** The default account of keys created without one, made on first use (concurrent first keys do not race). */
  async ensureDefault(): Promise<void> {
    await this.db.query('INSERT INTO "accounts" ("id", "name") VALUES ($1, $2) ON CONFLICT ("id") DO NOTHING', [DEFAULT_ACCOUNT_ID, 'default']);
  }

  async exists(id: string): Promise<boolean> {
    return (await this.prisma.account.findUnique({ where: { id }, select: { id: true } })) !== null;
  }

  async list(): Promise<AccountView[]> {
    return (await this.prisma.account.findMany({ orderBy: { createdAt: 'asc' }, take: 1000 })).map(accountView);
  }

  async find(id: string): Promise<AccountDetail | null> {
    const row = await this.prisma.account.findUnique({
      where: { id },
      include: { projects: { orderBy: { name: 'asc' } }, members: { orderBy: { name: 'asc' } }, _count: { select: { apiKeys: { where: { revokedAt: null } } } } },
    });
    if (!row) return null;
    return {
      ...accountView(row),
      projects: row.projects.map((p) => ownerView('project', p)),
      members: row.members.map((m) => ownerView('member', m)),
      active_keys: row._count.apiKeys,
    };
  }

  /** The account's project of this name, made if it is new. */
  async project(accountId: string, name: string): Promise<OwnerView> {
    const row = await this.prisma.project.upsert({
      where: { accountId_name: { accountId, name } },
      create: { id: `proj_${randomUUID().replace(/-/g, '')}`, accountId, name },
      update: {},
    });
    return ownerView('project', row);
  }

  /** Whether the key, project or member `id` belongs to the account (what a budget may be set on). */
  async owns(accountId: string, kind: 'key' | 'project' | 'member', id: string): Promise<boolean> {
    const table = { key: 'api_keys', project: 'projects', member: 'members' }[kind];
    const { rows } = await this.db.query(`SELECT 1 FROM "${table}" WHERE "id" = $1 AND "account_id" = $2`, [id, accountId]);
    return rows.length > 0;
  }

  /** The account's member of this name, made if it is new. */
  async member(accountId: string, name: string): Promise<OwnerView> {
    const row = await this.prisma.member.upsert({
      where: { accountId_name: { accountId, name } },
      create: { id: `mem_${randomUUID().replace(/-/g, '')}`, accountId, name },
      update: {},
    });
    return ownerView('member', row);
  }
}

function accountView(row: { id: string; name: string; createdAt: Date }): AccountView {
  return { id: row.id, object: 'account', name: row.name, created_at: row.createdAt.toISOString() };
}

function ownerView(object: 'project' | 'member', row: { id: string; accountId: string; name: string; createdAt: Date }): OwnerView {
  return { id: row.id, object, account_id: row.accountId, name: row.name, created_at: row.createdAt.toISOString() };
}
