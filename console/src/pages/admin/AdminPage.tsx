import { useEffect, useState } from 'preact/hooks';
import { ProblemNotice } from '../../components/ProblemNotice';
import { OperatorPage } from '../../components/OperatorPage';
import { useGraphqlQuery } from '../../lib/use-graphql-query';
import type { StoredSecret } from '../../lib/use-stored-secret';
import { AccountDetail } from './AccountDetail';
import { AccountList } from './AccountList';
import { ACCOUNTS_QUERY, type AccountsAnswer } from './admin-operations';
import { useAdminSession } from '../../lib/admin-session';
import { CreateAccountForm } from './CreateAccountForm';
import { FirstKey } from './FirstKey';

/**
 * Admin: the operator's daily work over the admin GraphQL, with the admin
 * token (GATEWAY_ADMIN_TOKEN), kept apart from the API key: accounts, their
 * projects, members and keys, wallets, budgets, the ledger with refunds,
 * and reconcile. A gateway with no keys yet is offered its first.
 */
export function AdminPage({ token, onSignIn }: { token: StoredSecret; onSignIn(key: string, remember: boolean): void }) {
  return (
    <OperatorPage title="Admin" token={token}>
      {(value) => <Operator key={value} token={value} onSignIn={onSignIn} />}
    </OperatorPage>
  );
}

function Operator({ token, onSignIn }: { token: string; onSignIn(key: string, remember: boolean): void }) {
  const admin = useAdminSession(token);
  const [selected, setSelected] = useState<string>();
  const list = useGraphqlQuery<AccountsAnswer>(admin.endpoint, ACCOUNTS_QUERY, {}, admin.revision);
  // The first-run offer stays once shown, so the new key's secret is not swept away when the list reloads with it.
  const noKeys = list.data !== undefined && list.data.keys.length === 0;
  const [firstRun, setFirstRun] = useState(false);
  useEffect(() => {
    if (noKeys) setFirstRun(true);
  }, [noKeys]);
  return (
    <>
      <ProblemNotice problem={list.problem} />
      {firstRun && <FirstKey admin={admin} onSignIn={onSignIn} onDone={() => setFirstRun(false)} />}
      {list.data && (
        <section class="card" aria-labelledby="accounts-title">
          <h2 id="accounts-title">Accounts</h2>
          <AccountList accounts={list.data.accounts} keys={list.data.keys} selected={selected} onSelect={setSelected} />
          <CreateAccountForm admin={admin} onCreated={setSelected} />
        </section>
      )}
      {selected && list.data && <AccountDetail key={selected} admin={admin} accountId={selected} keys={list.data.keys} />}
    </>
  );
}
