/** The admin GraphQL (/api/admin/graphql) the Admin page runs, and the shapes it reads. */

export interface Account {
  id: string;
  name: string;
  createdAt: string;
}

export interface ApiKey {
  id: string;
  name: string;
  keyPrefix: string;
  accountId: string;
  projectId: string | null;
  memberId: string | null;
  models: string[];
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

export interface AccountsAnswer {
  accounts: Account[];
  keys: ApiKey[];
}

export const ACCOUNTS_QUERY = `query ConsoleAccounts {
  accounts { id name createdAt }
  keys { id name keyPrefix accountId projectId memberId models createdAt expiresAt revokedAt }
}`;

export interface Budget {
  id: string;
  scope: string;
  scopeId: string;
  period: string;
  mode: string;
  limitMicrousd: number;
  spentMicrousd: number;
  heldMicrousd: number;
  remainingMicrousd: number;
  periodStart: string;
}

export interface Wallet {
  spendControlled: boolean;
  balanceMicrousd: number;
  heldMicrousd: number;
  creditLimitMicrousd: number | null;
}

export interface AccountAnswer {
  account: { id: string; name: string; activeKeys: number; projects: Array<{ id: string; name: string }>; members: Array<{ id: string; name: string }> } | null;
  wallet: Wallet;
  accountBudgets: Budget[];
}

export const ACCOUNT_QUERY = `query ConsoleAccount($id: ID!) {
  account(id: $id) { id name activeKeys projects { id name } members { id name } }
  wallet(accountId: $id) { spendControlled balanceMicrousd heldMicrousd creditLimitMicrousd }
  accountBudgets(accountId: $id) { id scope scopeId period mode limitMicrousd spentMicrousd heldMicrousd remainingMicrousd periodStart }
}`;

export interface LedgerEntry {
  id: string;
  kind: string;
  amountMicrousd: number;
  chargedMicrousd: number;
  createdAt: string;
  keyId: string | null;
  requestId: string | null;
  note: string | null;
}

export interface LedgerAnswer {
  ledger: { entries: LedgerEntry[]; hasMore: boolean; nextBefore: string | null };
}

export const LEDGER_PAGE_SIZE = 25;

export const LEDGER_QUERY = `query ConsoleLedger($accountId: ID!, $first: Int, $before: String) {
  ledger(accountId: $accountId, first: $first, before: $before) {
    entries { id kind amountMicrousd chargedMicrousd createdAt keyId requestId note }
    hasMore nextBefore
  }
}`;
