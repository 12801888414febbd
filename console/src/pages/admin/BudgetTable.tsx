import { formatMicrousd, formatTime } from '../../lib/format';
import type { Budget } from './admin-operations';

/** An account's budgets with the current period's figures. */
export function BudgetTable({ budgets }: { budgets: Budget[] }) {
  if (budgets.length === 0) return <p class="muted">No budgets.</p>;
  return (
    <div class="table-wrap">
      <table>
        <caption>Budgets</caption>
        <thead>
          <tr>
            <th scope="col">Scope</th>
            <th scope="col">Period</th>
            <th scope="col">Mode</th>
            <th scope="col" class="number">Limit</th>
            <th scope="col" class="number">Spent</th>
            <th scope="col" class="number">Held</th>
            <th scope="col" class="number">Remaining</th>
            <th scope="col">Period start</th>
          </tr>
        </thead>
        <tbody>
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
        </tbody>
      </table>
    </div>
  );
}
