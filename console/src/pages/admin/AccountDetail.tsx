import { ProblemNotice } from '../../components/ProblemNotice';
import { useGraphqlQuery } from '../../lib/use-graphql-query';
import { ACCOUNT_QUERY, type AccountAnswer, type ApiKey } from './admin-operations';
import type { AdminSession } from '../../lib/admin-session';
import { BudgetForm } from './BudgetForm';
import { BudgetTable } from './BudgetTable';
import { CreateKeyForm } from './CreateKeyForm';
import { KeyTable } from './KeyTable';
import { LedgerTable } from './LedgerTable';
import { OwnerForm } from './OwnerForm';
import { ReconcilePanel } from './ReconcilePanel';
import { RefundForm } from './RefundForm';
import { WalletPanel } from './WalletPanel';

/** One account as the operator runs it: projects and members, wallet, keys, budgets, the ledger and reconcile. */
export function AccountDetail({ admin, accountId, keys }: { admin: AdminSession; accountId: string; keys: ApiKey[] }) {
  const detail = useGraphqlQuery<AccountAnswer>(admin.endpoint, ACCOUNT_QUERY, { id: accountId }, admin.revision);
  const data = detail.data;
  const account = data?.account;
  const accountKeys = keys.filter((k) => k.accountId === accountId);
  const name = account?.name ?? accountId;
  return (
    <section class="card account" aria-labelledby="account-title">
      <header class="section-header">
        <h2 id="account-title">
          Account {name} <code class="muted small">{accountId}</code>
        </h2>
        <button type="button" class="secondary" onClick={admin.changed}>
          Refresh
        </button>
      </header>
      <ProblemNotice problem={detail.problem} />
      {account && data && (
        <>
          <section aria-labelledby="owners-title">
            <h3 id="owners-title">Projects and members</h3>
            <p class="muted">
              {account.activeKeys} active key{account.activeKeys === 1 ? '' : 's'} · projects: {account.projects.map((p) => p.name).join(', ') || 'none'} ·
              members: {account.members.map((m) => m.name).join(', ') || 'none'}
            </p>
            <div class="form-row">
              <OwnerForm admin={admin} accountId={accountId} kind="project" />
              <OwnerForm admin={admin} accountId={accountId} kind="member" />
            </div>
          </section>
          <WalletPanel admin={admin} accountId={accountId} accountName={name} wallet={data.wallet} />
          <section aria-labelledby="keys-title">
            <h3 id="keys-title">Keys</h3>
            <KeyTable admin={admin} keys={accountKeys} />
            <CreateKeyForm admin={admin} accountId={accountId} projects={account.projects} members={account.members} />
          </section>
          <section aria-labelledby="budgets-title">
            <h3 id="budgets-title">Budgets</h3>
            <BudgetTable admin={admin} budgets={data.accountBudgets} keys={accountKeys} account={account} />
            <BudgetForm admin={admin} accountId={accountId} keys={accountKeys} projects={account.projects} members={account.members} />
          </section>
          <section aria-labelledby="ledger-title">
            <h3 id="ledger-title">Ledger</h3>
            <LedgerTable admin={admin} accountId={accountId} />
            <RefundForm admin={admin} />
          </section>
          <ReconcilePanel admin={admin} accountId={accountId} />
        </>
      )}
    </section>
  );
}
