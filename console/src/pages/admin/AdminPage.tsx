import { useState } from 'preact/hooks';
import { ProblemNotice } from '../../components/ProblemNotice';
import { SecretForm } from '../../components/SecretForm';
import { SecretStatus } from '../../components/SecretStatus';
import { ADMIN_GRAPHQL_PATH } from '../../lib/graphql-request';
import { useGraphqlQuery } from '../../lib/use-graphql-query';
import { useStoredSecret } from '../../lib/use-stored-secret';
import { AccountDetail } from './AccountDetail';
import { AccountList } from './AccountList';
import { ACCOUNTS_QUERY, type AccountsAnswer } from './admin-operations';

export const ADMIN_TOKEN_STORAGE = 'gateway-console.admin-token';

/**
 * Admin: accounts, their keys, wallets, budgets and ledger entries, read
 * from the admin GraphQL with the admin token (GATEWAY_ADMIN_TOKEN), which
 * is pasted here and kept apart from the API key.
 */
export function AdminPage() {
  const token = useStoredSecret(ADMIN_TOKEN_STORAGE);
  const [selected, setSelected] = useState<string>();
  const endpoint = token.value ? { path: ADMIN_GRAPHQL_PATH, secret: token.value } : null;
  const list = useGraphqlQuery<AccountsAnswer>(endpoint, ACCOUNTS_QUERY);
  return (
    <section aria-labelledby="admin-title">
      <header class="page-header">
        <h1 id="admin-title">Admin</h1>
        {token.value && <SecretStatus label="Admin token" secret={token.value} onForget={token.forget} />}
      </header>
      {!token.value ? (
        <SecretForm label="Admin token" hint="The gateway's GATEWAY_ADMIN_TOKEN. The admin API is off when the gateway has none." onSave={token.save} />
      ) : (
        <>
          <ProblemNotice problem={list.problem} />
          {list.data && <AccountList accounts={list.data.accounts} keys={list.data.keys} selected={selected} onSelect={setSelected} />}
          {selected && list.data && <AccountDetail key={selected} adminToken={token.value} accountId={selected} keys={list.data.keys} />}
        </>
      )}
    </section>
  );
}
