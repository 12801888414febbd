import DataLoader from 'dataloader';
import type { BudgetView } from '../billing/budget-store';
import type { CredentialView } from '../keys/credential-store';
import type { KeySummary } from '../keys/key-store';
import type { Principal } from '../keys/principal';
import type { KeyedUsageRecord } from '../usage/usage-queries';
import type { GraphqlServices } from './context';

/**
 * What one GraphQL operation reads in batches, for its calling key: every
 * `load` of a loader made while the operation resolves one level of the
 * result goes to the database as ONE statement (all the key ids of a page
 * of usage records, all the references of an `_entities` call), and what
 * was read is kept until the operation ends. Made per operation (a cache
 * never outlives it, nor crosses keys) and each loader only when first
 * used, so an operation that needs none pays nothing.
 */
export class OperationLoaders {
  private keyLoader?: DataLoader<string, KeySummary | null>;
  private recordLoader?: DataLoader<string, KeyedUsageRecord | null>;
  private budgetList?: Promise<BudgetView[]>;
  private credentialList?: Promise<CredentialView[]>;

  constructor(
    private readonly services: GraphqlServices,
    private readonly principal: Principal,
  ) {}

  /** Keys by id, within the calling key's account: what a usage record shows of the key that made it. */
  get keys(): DataLoader<string, KeySummary | null> {
    return (this.keyLoader ??= new DataLoader(async (ids) => inOrder(ids, await this.services.keys.summaries(this.principal.accountId, ids))));
  }

  /** Usage records by id, the calling key's only: another key's record loads as null, like a missing one. */
  get usageRecords(): DataLoader<string, KeyedUsageRecord | null> {
    return (this.recordLoader ??= new DataLoader(async (ids) => inOrder(ids, await this.services.usage.byIds(this.principal, ids))));
  }

  /** The budgets the calling key is checked against: its own (and, for a credential, its parent's), its project's, its member's, its account's. */
  budgets(): Promise<BudgetView[]> {
    const p = this.principal;
    const keyIds = p.parentKeyId ? [p.keyId, p.parentKeyId] : [p.keyId];
    return (this.budgetList ??= this.services.credentials.budgets.listOver(p.accountId, keyIds, p.projectId, p.memberId));
  }

  /** The temporary credentials the calling key minted, newest first; none for a credential, which mints none. */
  credentials(): Promise<CredentialView[]> {
    const p = this.principal;
    return (this.credentialList ??= p.parentKeyId === null ? this.services.credentials.credentials.list(p.keyId) : Promise.resolve([]));
  }
}

/** One result per id asked for, in its order: the row of that id, or null. */
function inOrder<T extends { id: string }>(ids: readonly string[], rows: readonly T[]): Array<T | null> {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? null);
}
