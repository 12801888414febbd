import { z } from 'zod';
import type { BudgetStore, BudgetView } from '../billing/budget-store';
import { ledgerCursor, type Ledger, type LedgerEntryView } from '../billing/ledger';
import { reconcileSpend, type ReconcileReport } from '../billing/spend-reconcile';
import type { WalletStore, WalletView } from '../billing/wallet-store';
import type { Database } from '../db/database';
import { decodeCursor, pageLimit, type Page, type PageLimits } from '../db/page';
import { isWellFormedId } from '../db/well-formed-id';
import { Errors } from '../errors/errors';
import { GatewayError } from '../errors/gateway-error';
import { parseRequest } from '../errors/parse-request';
import type { AccountStore } from '../keys/account-store';
import type { KeyStore } from '../keys/key-store';
import { accountNotFound } from './account-not-found';

/** A billion US dollars: above it an amount is a typo, not money. */
const MAX_MICROUSD = 1_000_000_000_000_000;
const microusd = z.number().int().max(MAX_MICROUSD);
const note = z.string().trim().min(1).max(500);

const topUpSchema = z.strictObject({ amount_microusd: microusd.positive(), note: note.optional() });
const adjustmentSchema = z.strictObject({
  amount_microusd: microusd.min(-MAX_MICROUSD).refine((n) => n !== 0, 'must not be 0'),
  note,
});
const walletChangeSchema = z.strictObject({ credit_limit_microusd: microusd.nonnegative().nullable() });
const budgetSchema = z.strictObject({
  scope: z.enum(['key', 'project', 'member', 'account']),
  /** The key, project or member id; omitted for an account budget. */
  scope_id: z.string().min(1).max(128).optional(),
  period: z.enum(['total', 'monthly', 'daily']),
  limit_microusd: microusd.nonnegative(),
  mode: z.enum(['hard', 'soft']).default('hard'),
});
const refundSchema = z.strictObject({
  request_id: z.string().min(1).max(128),
  /** Left out: all of the charge that is left. */
  amount_microusd: microusd.positive().optional(),
  note: note.optional(),
});
const budgetChangeSchema = z.strictObject({ limit_microusd: microusd.nonnegative().optional(), mode: z.enum(['hard', 'soft']).optional() });

/** A ledger page holds 100 entries unless asked for fewer or more. */
export const LEDGER_PAGE: PageLimits = { default: 100, max: 500 };

/** A wallet as the admin API shows it, also for an account that has none (not under spend control). */
export type WalletState = WalletView & { spend_controlled: boolean };

export interface SpendAdminDeps {
  db: Pick<Database, 'query'>;
  accounts: AccountStore;
  keys: Pick<KeyStore, 'accountChanged'>;
  wallets: WalletStore;
  budgets: BudgetStore;
  ledger: Ledger;
}

/**
 * The operator's spend control, for both admin doors (REST under
 * /api/admin/ and the admin GraphQL): request bodies in the REST shape are
 * validated here, so both refuse alike. The first wallet or budget of an
 * account puts it under spend control, and its keys are read again on every
 * instance.
 */
export class SpendAdmin {
  constructor(private readonly deps: SpendAdminDeps) {}

  /** The id of an existing account; account_not_found otherwise. */
  async account(raw: string): Promise<string> {
    if (!isWellFormedId(raw) || !(await this.deps.accounts.exists(raw))) throw accountNotFound(raw);
    return raw;
  }

  async wallet(accountId: string): Promise<WalletState> {
    const wallet = await this.deps.wallets.find(accountId);
    if (wallet) return { ...wallet, spend_controlled: true };
    const never = new Date(0).toISOString();
    return { object: 'wallet', account_id: accountId, balance_microusd: 0, held_microusd: 0, credit_limit_microusd: null, created_at: never, updated_at: never, spend_controlled: false };
  }

  async setCreditLimit(accountId: string, body: unknown): Promise<WalletState> {
    const { credit_limit_microusd: limit } = parseRequest(walletChangeSchema, body);
    await this.controlling(accountId, () => this.deps.wallets.setCreditLimit(accountId, limit === null ? null : BigInt(limit)));
    return this.wallet(accountId);
  }

  /** A top-up or an adjustment: one ledger entry. */
  async move(accountId: string, kind: 'top_up' | 'adjustment', body: unknown): Promise<{ entry_id: string; wallet: WalletState }> {
    const { amount_microusd: amount, note: text } = parseRequest(kind === 'top_up' ? topUpSchema : adjustmentSchema, body);
    const entryId = await this.controlling(accountId, () => this.deps.wallets.move(accountId, kind, BigInt(amount), text ?? null));
    return { entry_id: entryId, wallet: await this.wallet(accountId) };
  }

  /** A page of the account's ledger, newest first; `limit` as a number or a query's text; `before` is a `next_before` of an earlier page. */
  async ledger(accountId: string, limit: number | string | undefined, before: string | undefined): Promise<Page<LedgerEntryView>> {
    const size = pageLimit(limit, LEDGER_PAGE, 'limit');
    return this.deps.ledger.page(accountId, size, before === undefined ? null : decodeCursor(ledgerCursor, before));
  }

  budgets(accountId: string): Promise<BudgetView[]> {
    return this.deps.budgets.listForAccount(accountId);
  }

  async budget(id: string): Promise<BudgetView> {
    const budget = isWellFormedId(id) ? await this.deps.budgets.find(id) : null;
    if (!budget) throw new GatewayError('budget_not_found', `No budget "${id}". GET /api/admin/accounts/{account_id}/budgets lists an account's budgets.`);
    return budget;
  }

  async createBudget(accountId: string, body: unknown): Promise<BudgetView> {
    const input = parseRequest(budgetSchema, body);
    const scopeId = input.scope === 'account' ? accountId : input.scope_id;
    if (!scopeId) throw Errors.validation('scope_id', `is required for a ${input.scope} budget: the ${input.scope}'s id.`);
    if (input.scope === 'account' && input.scope_id !== undefined && input.scope_id !== accountId) throw Errors.validation('scope_id', 'of an account budget is the account itself; leave it out.');
    if (input.scope !== 'account' && !(isWellFormedId(scopeId) && (await this.deps.accounts.owns(accountId, input.scope, scopeId)))) {
      throw Errors.validation('scope_id', `"${scopeId}" is not a ${input.scope} of account ${accountId}.`);
    }
    return this.controlling(accountId, async () => {
      await this.deps.wallets.ensure(accountId);
      return this.deps.budgets.create({ accountId, scope: input.scope, scopeId, period: input.period, limitMicrousd: BigInt(input.limit_microusd), mode: input.mode });
    });
  }

  async updateBudget(id: string, body: unknown): Promise<BudgetView> {
    const budget = await this.budget(id);
    const change = parseRequest(budgetChangeSchema, body);
    const updated = await this.deps.budgets.update(budget.id, { limitMicrousd: change.limit_microusd === undefined ? undefined : BigInt(change.limit_microusd), mode: change.mode });
    if (!updated) throw new GatewayError('budget_not_found', `Budget "${budget.id}" was removed meanwhile.`);
    return updated;
  }

  async deleteBudget(id: string): Promise<{ id: string; object: 'budget'; deleted: true }> {
    const budget = await this.budget(id);
    await this.deps.budgets.remove(budget.id);
    return { id: budget.id, object: 'budget', deleted: true };
  }

  /** Gives back (part of) a settled charge to its wallet and key; the usage record is lowered by as much. */
  async refund(body: unknown): Promise<{ entry_id: string; request_id: string; refunded_microusd: number; wallet: WalletState }> {
    const input = parseRequest(refundSchema, body);
    const amount = input.amount_microusd === undefined ? null : BigInt(input.amount_microusd);
    const outcome = isWellFormedId(input.request_id) ? await this.deps.ledger.refund(input.request_id, amount, input.note ?? null) : ({ kind: 'nothing_to_refund' } as const);
    if (outcome.kind === 'nothing_to_refund') {
      throw new GatewayError('nothing_to_refund', `Request "${input.request_id}" has no charge left to refund: it was not charged, was refunded already, or its account was not under spend control when it ran.`, { param: 'request_id' });
    }
    if (outcome.kind === 'too_large') throw Errors.validation('amount_microusd', `is more than is left to refund of this request (${outcome.refundableMicrousd} micro-USD).`);
    const entries = await this.deps.ledger.forRequest(input.request_id);
    const refund = entries.find((e) => e.id === outcome.entryId)!;
    return { entry_id: outcome.entryId, request_id: input.request_id, refunded_microusd: refund.amount_microusd, wallet: await this.wallet(refund.account_id) };
  }

  async reconcile(accountId: string | null): Promise<ReconcileReport> {
    return reconcileSpend(this.deps.db, accountId === null ? null : await this.account(accountId));
  }

  /** Runs `change`; when the account had no wallet before, its keys are read again everywhere (they now hold before paid calls). */
  private async controlling<T>(accountId: string, change: () => Promise<T>): Promise<T> {
    const before = await this.deps.wallets.find(accountId);
    const result = await change();
    if (!before) await this.deps.keys.accountChanged(accountId);
    return result;
  }
}
