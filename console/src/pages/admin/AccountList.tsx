import { DataTable } from '../../components/DataTable';
import { formatTime } from '../../lib/format';
import type { Account, ApiKey } from './admin-operations';

/** Every account, with its number of keys; choosing one shows its keys, wallet, budgets and ledger. */
export function AccountList({ accounts, keys, selected, onSelect }: { accounts: Account[]; keys: ApiKey[]; selected: string | undefined; onSelect(id: string): void }) {
  if (accounts.length === 0) return <p class="muted">No accounts.</p>;
  return (
    <DataTable caption="Accounts" captionHidden columns={['Name', 'Id', { label: 'Keys', number: true }, 'Created', { label: 'Show', labelHidden: true }]}>
      {accounts.map((a) => (
        <tr key={a.id} data-account-id={a.id} class={a.id === selected ? 'selected' : undefined}>
          <td>{a.name}</td>
          <td>
            <code class="small">{a.id}</code>
          </td>
          <td class="number">{keys.filter((k) => k.accountId === a.id && !k.parentKeyId).length}</td>
          <td class="nowrap">{formatTime(a.createdAt)}</td>
          <td>
            <button type="button" class="link-button" aria-pressed={a.id === selected} onClick={() => onSelect(a.id)} aria-label={`Show account ${a.name}`}>
              Show
            </button>
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
