import { DataTable } from '../../components/DataTable';
import { StatusBadge } from '../../components/StatusBadge';
import { formatCount, formatMicrousd, formatTime } from '../../lib/format';
import type { UsageRecordRow } from './usage-operations';

/** A page of usage records, newest first: when, request id, model, endpoint, status, tokens, charge. */
export function UsageTable({ records }: { records: UsageRecordRow[] }) {
  if (records.length === 0) return <p class="muted">No usage records match.</p>;
  return (
    <DataTable caption="Usage records" captionHidden columns={['Time', 'Request', 'Model', 'Endpoint', 'Status', { label: 'Tokens in / out', number: true }, { label: 'Charge', number: true }]}>
      {records.map((r) => {
        const status = r.routing?.statusCode;
        return (
          <tr key={r.id} data-record-id={r.id}>
            <td class="nowrap">{formatTime(r.createdAt)}</td>
            <td>
              <code class="small">{r.id}</code>
            </td>
            <td>{r.model}</td>
            <td>
              <code class="small">{r.endpoint}</code>
            </td>
            <td>{status === undefined ? '—' : <StatusBadge text={String(status)} tone={status < 400 ? 'good' : 'bad'} />}</td>
            <td class="number">
              {formatCount(r.usage.promptTokens)} / {formatCount(r.usage.completionTokens)}
            </td>
            <td class="number">
              {formatMicrousd(r.billing.amountMicrousd)}
              {r.billing.state !== 'final' && <span class="muted small"> {r.billing.state}</span>}
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}
