import { z } from 'zod';
import { isWellFormedId } from '../db/well-formed-id';
import { parseRequest } from '../errors/parse-request';
import type { AccountDetail, AccountStore, AccountView, OwnerView } from '../keys/account-store';
import { accountNotFound } from './account-not-found';

export const nameSchema = z.object({ name: z.string().trim().min(1).max(200) });

/** What an account holds by name: its projects and its members. */
export type OwnerKind = 'project' | 'member';

/**
 * The operator's accounts, their projects and members, for both admin
 * doors (REST under /api/admin/accounts and the admin GraphQL): request
 * bodies in the REST shape are validated here, so both refuse alike.
 */
export class AccountAdmin {
  constructor(private readonly accounts: AccountStore) {}

  async create(body: unknown): Promise<AccountView> {
    return this.accounts.create(parseRequest(nameSchema, body).name);
  }

  /** Every account (the first 1,000, oldest first). */
  list(): Promise<AccountView[]> {
    return this.accounts.list();
  }

  /** An account with its projects, members and active key count; null when there is none. */
  async find(id: string): Promise<AccountDetail | null> {
    return isWellFormedId(id) ? this.accounts.find(id) : null;
  }

  /** An account with its projects, members and active key count; account_not_found when there is none. */
  async get(id: string): Promise<AccountDetail> {
    const account = await this.find(id);
    if (!account) throw accountNotFound(id);
    return account;
  }

  /** The account's project or member of the body's name: the existing one, or made now (`created`). */
  async owner(accountId: string, kind: OwnerKind, body: unknown): Promise<{ owner: OwnerView; created: boolean }> {
    const { name } = parseRequest(nameSchema, body);
    const account = await this.get(accountId);
    const known = (kind === 'project' ? account.projects : account.members).find((owner) => owner.name === name);
    if (known) return { owner: known, created: false };
    const owner = kind === 'project' ? await this.accounts.project(account.id, name) : await this.accounts.member(account.id, name);
    return { owner, created: true };
  }
}
