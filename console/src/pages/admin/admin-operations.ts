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
  /** The key that minted it, for a temporary credential. */
  parentKeyId: string | null;
  models: string[];
  allowedDomains: string[];
  /** MCP tools (names or patterns) it may use through /mcp; null: every tool. */
  mcpTools: string[] | null;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

const KEY_FIELDS = 'id name keyPrefix accountId projectId memberId parentKeyId models allowedDomains mcpTools createdAt expiresAt revokedAt';

export interface AccountsAnswer {
  accounts: Account[];
  keys: ApiKey[];
}

export const ACCOUNTS_QUERY = `query ConsoleAccounts {
  accounts { id name createdAt }
  keys { ${KEY_FIELDS} }
}`;

export interface Owner {
  id: string;
  name: string;
}

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
  account: { id: string; name: string; activeKeys: number; projects: Owner[]; members: Owner[] } | null;
  wallet: Wallet;
  accountBudgets: Budget[];
}

const WALLET_FIELDS = 'spendControlled balanceMicrousd heldMicrousd creditLimitMicrousd';

export const ACCOUNT_QUERY = `query ConsoleAccount($id: ID!) {
  account(id: $id) { id name activeKeys projects { id name } members { id name } }
  wallet(accountId: $id) { ${WALLET_FIELDS} }
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

export interface Reconciliation {
  ok: boolean;
  checks: Array<{ name: string; description: string; ok: boolean; violations: Array<Record<string, unknown>> }>;
  openHolds: { count: number; amountMicrousd: number; oldestAt: string | null };
}

export const RECONCILE_QUERY = `query ConsoleReconcile($accountId: ID) {
  reconcile(accountId: $accountId) { ok checks { name description ok violations } openHolds { count amountMicrousd oldestAt } }
}`;

// Writes: each is one admin mutation, refused by the gateway as its REST twin is.

export const CREATE_ACCOUNT = `mutation ConsoleCreateAccount($name: String!) { createAccount(name: $name) { id name } }`;

export const CREATE_PROJECT = `mutation ConsoleCreateProject($accountId: ID!, $name: String!) { createProject(accountId: $accountId, name: $name) { id name } }`;

export const CREATE_MEMBER = `mutation ConsoleCreateMember($accountId: ID!, $name: String!) { createMember(accountId: $accountId, name: $name) { id name } }`;

export interface KeyInput {
  name: string;
  accountId?: string;
  project?: string;
  member?: string;
  models?: string[];
  allowedDomains?: string[];
  expiresAt?: string;
}

export const CREATE_KEY = `mutation ConsoleCreateKey($input: CreateKeyInput!) { createKey(input: $input) { ${KEY_FIELDS} key } }`;

export const UPDATE_KEY = `mutation ConsoleUpdateKey($id: ID!, $input: UpdateKeyInput!) { updateKey(id: $id, input: $input) { ${KEY_FIELDS} } }`;

export const SET_KEY_MCP_TOOLS = `mutation ConsoleSetKeyMcpTools($id: ID!, $tools: [String!]) { setKeyMcpTools(id: $id, tools: $tools) { id mcpTools } }`;

export const REVOKE_KEY = `mutation ConsoleRevokeKey($id: ID!) { revokeKey(id: $id) { id revokedAt } }`;

export const TOP_UP = `mutation ConsoleTopUp($accountId: ID!, $amount: SafeInt!, $note: String) {
  topUpWallet(accountId: $accountId, amountMicrousd: $amount, note: $note) { entryId wallet { ${WALLET_FIELDS} } }
}`;

export const SET_CREDIT_LIMIT = `mutation ConsoleSetCreditLimit($accountId: ID!, $limit: SafeInt) {
  setCreditLimit(accountId: $accountId, creditLimitMicrousd: $limit) { ${WALLET_FIELDS} }
}`;

export interface BudgetInput {
  scope: string;
  scopeId?: string;
  period: string;
  limitMicrousd: number;
  mode: string;
}

export const CREATE_BUDGET = `mutation ConsoleCreateBudget($accountId: ID!, $input: CreateBudgetInput!) { createBudget(accountId: $accountId, input: $input) { id } }`;

export const UPDATE_BUDGET = `mutation ConsoleUpdateBudget($id: ID!, $limit: SafeInt, $mode: String) { updateBudget(id: $id, limitMicrousd: $limit, mode: $mode) { id } }`;

export const DELETE_BUDGET = `mutation ConsoleDeleteBudget($id: ID!) { deleteBudget(id: $id) { id deleted } }`;

export const REFUND = `mutation ConsoleRefund($requestId: String!, $amount: SafeInt, $note: String) {
  refund(requestId: $requestId, amountMicrousd: $amount, note: $note) { entryId refundedMicrousd wallet { balanceMicrousd } }
}`;
