import { DataTable } from '../../components/DataTable';
import { StatusBadge } from '../../components/StatusBadge';
import { formatTime } from '../../lib/format';
import type { ApiKey } from './admin-operations';

/** An account's keys (never their secrets): prefix, name, models, and whether each is active, expired or revoked. */
export function KeyTable({ keys }: { keys: ApiKey[] }) {
  if (keys.length === 0) return <p class="muted">No keys.</p>;
  const now = Date.now();
  return (
    <DataTable caption="Keys" columns={['Name', 'Prefix', 'Models', 'Created', 'State']}>
      {keys.map((k) => {
        const expired = k.expiresAt !== null && Date.parse(k.expiresAt) <= now;
        return (
          <tr key={k.id} data-key-id={k.id}>
            <td>
              <div>{k.name}</div>
              <code class="muted small">{k.id}</code>
            </td>
            <td>
              <code>{k.keyPrefix}…</code>
            </td>
            <td class="small">{k.models.length ? k.models.join(', ') : 'every model'}</td>
            <td class="nowrap">{formatTime(k.createdAt)}</td>
            <td>{k.revokedAt ? <StatusBadge text="revoked" tone="bad" /> : expired ? <StatusBadge text="expired" tone="bad" /> : <StatusBadge text="active" tone="good" />}</td>
          </tr>
        );
      })}
    </DataTable>
  );
}
