import { useState } from 'preact/hooks';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { ChoiceSelect } from '../../components/ChoiceSelect';
import { MoneyField } from '../../components/MoneyField';
import { ProblemNotice } from '../../components/ProblemNotice';
import { useToast } from '../../components/Toasts';
import { unreadableAmount } from '../../lib/amount-problem';
import { formatMicrousd, formatTime, parseUsd } from '../../lib/format';
import { useAction } from '../../lib/use-action';
import { DELETE_BUDGET, UPDATE_BUDGET, type ApiKey, type Budget, type Owner } from './admin-operations';
import type { AdminSession } from '../../lib/admin-session';
import { MODES } from './BudgetForm';

interface AccountOwners {
  id: string;
  name: string;
  projects: Owner[];
  members: Owner[];
}

/**
 * An account's budgets with the current period's figures; each one's limit
 * and mode are edited in place, and a budget is removed after a
 * confirmation (its limit stops applying at once).
 */
export function BudgetTable({ admin, budgets, keys, account }: { admin: AdminSession; budgets: Budget[]; keys: ApiKey[]; account: AccountOwners }) {
  const [editing, setEditing] = useState<string>();
  const [removing, setRemoving] = useState<Budget>();
  const toast = useToast();
  if (budgets.length === 0) return <p class="muted">No budgets.</p>;
  const nameOf = (b: Budget): string => {
    const owners: Owner[] = b.scope === 'key' ? keys : b.scope === 'project' ? account.projects : b.scope === 'member' ? account.members : [account];
    return owners.find((o) => o.id === b.scopeId)?.name ?? b.scopeId;
  };
  return (
    <>
      <DataTable
        caption="Budgets"
        captionHidden
        columns={['Scope', 'Period', 'Mode', { label: 'Limit', number: true }, { label: 'Spent', number: true }, { label: 'Held', number: true }, { label: 'Remaining', number: true }, 'Period start', { label: 'Actions', labelHidden: true }]}
      >
        {budgets.map((b) =>
          editing === b.id ? (
            <BudgetEditor key={b.id} admin={admin} budget={b} name={nameOf(b)} onDone={() => setEditing(undefined)} />
          ) : (
            <tr key={b.id} data-budget-id={b.id}>
              <td>
                {b.scope} {nameOf(b)}
                <div>
                  <code class="muted small">{b.scopeId}</code>
                </div>
              </td>
              <td>{b.period}</td>
              <td>{b.mode}</td>
              <td class="number">{formatMicrousd(b.limitMicrousd)}</td>
              <td class="number">{formatMicrousd(b.spentMicrousd)}</td>
              <td class="number">{formatMicrousd(b.heldMicrousd)}</td>
              <td class="number">{formatMicrousd(b.remainingMicrousd)}</td>
              <td class="nowrap">{formatTime(b.periodStart)}</td>
              <td class="actions-cell">
                <button type="button" class="link-button" aria-label={`Edit the ${b.period} budget of ${b.scope} ${nameOf(b)}`} onClick={() => setEditing(b.id)}>
                  Edit
                </button>
                <button type="button" class="link-button danger" aria-label={`Remove the ${b.period} budget of ${b.scope} ${nameOf(b)}`} onClick={() => setRemoving(b)}>
                  Remove
                </button>
              </td>
            </tr>
          ),
        )}
      </DataTable>
      {removing && (
        <ConfirmDialog
          title={`Remove the ${removing.period} budget of ${removing.scope} ${nameOf(removing)}?`}
          confirmLabel="Remove"
          onConfirm={async () => {
            await admin.request(DELETE_BUDGET, { id: removing.id });
            toast(`Removed the ${removing.period} budget of ${removing.scope} ${nameOf(removing)}.`, 'success');
            admin.changed();
          }}
          onClose={() => setRemoving(undefined)}
        >
          <p>Its limit of {formatMicrousd(removing.limitMicrousd)} stops applying at once; what was spent stays in the ledger.</p>
        </ConfirmDialog>
      )}
    </>
  );
}

/** A budget's row while its limit and mode are edited. */
function BudgetEditor({ admin, budget, name, onDone }: { admin: AdminSession; budget: Budget; name: string; onDone(): void }) {
  const [limit, setLimit] = useState((budget.limitMicrousd / 1_000_000).toString());
  const [mode, setMode] = useState(budget.mode);
  const action = useAction();
  const toast = useToast();
  return (
    <tr data-budget-id={budget.id} class="editing">
      <td colSpan={9}>
        <form
          class="inline-form"
          aria-label={`Edit the ${budget.period} budget of ${budget.scope} ${name}`}
          onSubmit={(event) => {
            event.preventDefault();
            void action.run(async () => {
              const limitMicrousd = parseUsd(limit);
              if (limitMicrousd === undefined) throw unreadableAmount(limit);
              await admin.request(UPDATE_BUDGET, { id: budget.id, limit: limitMicrousd, mode });
              toast(`Changed the ${budget.period} budget of ${budget.scope} ${name}.`, 'success');
              admin.changed();
              onDone();
            });
          }}
        >
          <div class="fields">
            <strong class="editing-name">
              {budget.period} budget of {budget.scope} {name}
            </strong>
            <MoneyField label="Limit (USD)" value={limit} onInput={setLimit} />
            <ChoiceSelect label="Mode" value={mode} choices={MODES} onChange={setMode} />
            <button type="submit" disabled={action.pending}>
              Save
            </button>
            <button type="button" class="secondary" onClick={onDone}>
              Cancel
            </button>
          </div>
          <ProblemNotice problem={action.problem} />
        </form>
      </td>
    </tr>
  );
}
