import { DataTable } from '../../components/DataTable';
import { formatMicrousd, formatTime } from '../../lib/format';
import type { Budget } from './admin-operations';

/** An account's budgets with the current period's figures. */
export function BudgetTable({ budgets }: { budgets: Budget[] }) {
  if (budgets.length === 0) return <p class="muted">No budgets.</p>;
  return (
    <DataTable caption="Budgets" columns={['Scope', 'Period', 'Mode', { label: 'Limit', number: true }, { label: 'Spent', number: true }, { label: 'Held', number: true }, { label: 'Remaining', number: true }, 'Period start']}>
      {budgets.map((b) => (
        <tr key={b.id} data-budget-id={b.id}>
          <td>
            {b.scope} <code class="muted small">{b.scopeId}</code>
          </td>
          <td>{b.period}</td>
          <td>{b.mode}</td>
          <td class="number">{formatMicrousd(b.limitMicrousd)}</td>
          <td class="number">{formatMicrousd(b.spentMicrousd)}</td>
          <td class="number">{formatMicrousd(b.heldMicrousd)}</td>
          <td class="number">{formatMicrousd(b.remainingMicrousd)}</td>
          <td class="nowrap">{formatTime(b.periodStart)}</td>
        </tr>
      ))}
    </DataTable>
  );
}
