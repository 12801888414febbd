import { ProblemNotice } from '../../components/ProblemNotice';
import { formatMicrousd } from '../../lib/format';
import { ADMIN_GRAPHQL_PATH } from '../../lib/graphql-request';
import { useGraphqlQuery } from '../../lib/use-graphql-query';
import { ACCOUNT_QUERY, type AccountAnswer, type ApiKey } from './admin-operations';
import { BudgetTable } from './BudgetTable';
import { KeyTable } from './KeyTable';
import { LedgerTable } from './LedgerTable';

/** One account as the operator sees it: projects and members, keys, wallet, budgets and ledger. */
export function AccountDetail({ adminToken, accountId, keys }: { adminToken: string; accountId: string; keys: ApiKey[] }) {
  const detail = useGraphqlQuery<AccountAnswer>({ path: ADMIN_GRAPHQL_PATH, secret: adminToken }, ACCOUNT_QUERY, { id: accountId });
  const data = detail.data;
  return (
    <section class="card" aria-labelledby="account-title">
      <h2 id="account-title">
        Account {data?.account?.name ?? accountId} <code class="muted small">{accountId}</code>
      </h2>
      <ProblemNotice problem={detail.problem} />
      {data?.account && (
        <p class="muted">
          {data.account.activeKeys} active key{data.account.activeKeys === 1 ? '' : 's'} · projects: {data.account.projects.map((p) => p.name).join(', ') || 'none'} · members:{' '}
          {data.account.members.map((m) => m.name).join(', ') || 'none'}
        </p>
      )}
      {data && (
        <dl class="totals">
          <div class="total">
            <dt>Wallet</dt>
            <dd>{data.wallet.spendControlled ? formatMicrousd(data.wallet.balanceMicrousd) : 'no wallet'}</dd>
          </div>
          <div class="total">
            <dt>Held</dt>
            <dd>{formatMicrousd(data.wallet.heldMicrousd)}</dd>
          </div>
          <div class="total">
            <dt>Credit limit</dt>
            <dd>{creditLimit(data.wallet.creditLimitMicrousd)}</dd>
          </div>
        </dl>
      )}
      <KeyTable keys={keys.filter((k) => k.accountId === accountId)} />
      {data && <BudgetTable budgets={data.accountBudgets} />}
      <LedgerTable key={accountId} adminToken={adminToken} accountId={accountId} />
    </section>
  );
}

/** How far below zero holds may take the balance: 0 is prepaid, null is never refused. */
function creditLimit(microusd: number | null): string {
  if (microusd === null) return 'none (never refused)';
  return microusd === 0 ? '$0 (prepaid)' : formatMicrousd(microusd);
}
