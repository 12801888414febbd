import type { BudgetStore, BudgetView } from '../billing/budget-store';
import type { WalletStore } from '../billing/wallet-store';
import type { CredentialStore, CredentialView, MintInput } from '../keys/credential-store';
import type { KeyStore } from '../keys/key-store';
import type { Principal } from '../keys/principal';

export interface CredentialServices {
  credentials: CredentialStore;
  keys: Pick<KeyStore, 'accountChanged' | 'revoke'>;
  wallets: WalletStore;
  budgets: BudgetStore;
}

export interface MintedCredential extends CredentialView {
  /** The secret, shown once. */
  key: string;
  budget: BudgetView | null;
}

/**
 * Mints a temporary credential for `parent` (REST and GraphQL alike). With a
 * budget, the credential gets a hard total budget of its own (which puts the
 * account under spend control); a credential whose budget could not be made
 * is revoked before anyone sees its secret, so it is never handed out wider
 * than asked.
 */
export async function mintCredential(services: CredentialServices, parent: Principal, input: MintInput & { budgetMicrousd?: bigint }): Promise<MintedCredential> {
  const { key, view } = await services.credentials.mint(parent, input);
  if (input.budgetMicrousd === undefined) return { ...view, key, budget: null };
  try {
    const madeWallet = await services.wallets.ensure(parent.accountId);
    const budget = await services.budgets.create({ accountId: parent.accountId, scope: 'key', scopeId: view.id, period: 'total', limitMicrousd: input.budgetMicrousd, mode: 'hard' });
    if (madeWallet) await services.keys.accountChanged(parent.accountId);
    return { ...view, key, budget };
  } catch (err) {
    await services.keys.revoke(view.id);
    throw err;
  }
}
