import { useState } from 'preact/hooks';
import { ChoiceSelect } from '../../components/ChoiceSelect';
import { Field } from '../../components/Field';
import { MoneyField } from '../../components/MoneyField';
import { ProblemNotice } from '../../components/ProblemNotice';
import { useToast } from '../../components/Toasts';
import { unreadableAmount } from '../../lib/amount-problem';
import { formatMicrousd, parseUsd } from '../../lib/format';
import { useAction } from '../../lib/use-action';
import { CREATE_BUDGET, type ApiKey, type BudgetInput, type Owner } from './admin-operations';
import type { AdminSession } from '../../lib/admin-session';

const SCOPES = ['account', 'key', 'project', 'member'] as const;
type Scope = (typeof SCOPES)[number];
export const PERIODS = ['monthly', 'daily', 'total'] as const;
export const MODES = ['hard', 'soft'] as const;

/**
 * A new budget over the account, one of its keys, projects or members:
 * total, monthly or daily (UTC), hard (refuses a call that could pass it)
 * or soft (lets it through). The scope's id is picked from the account's
 * or typed; the gateway refuses one that is not the account's.
 */
export function BudgetForm({ admin, accountId, keys, projects, members }: { admin: AdminSession; accountId: string; keys: ApiKey[]; projects: Owner[]; members: Owner[] }) {
  const [scope, setScope] = useState<Scope>('account');
  const [scopeId, setScopeId] = useState('');
  const [period, setPeriod] = useState<string>('monthly');
  const [limit, setLimit] = useState('');
  const [mode, setMode] = useState<string>('hard');
  const action = useAction();
  const toast = useToast();
  const choices: Owner[] = scope === 'key' ? keys.filter((k) => !k.revokedAt) : scope === 'project' ? projects : scope === 'member' ? members : [];
  return (
    <form
      class="inline-form"
      aria-label="New budget"
      onSubmit={(event) => {
        event.preventDefault();
        void action.run(async () => {
          const limitMicrousd = parseUsd(limit);
          if (limitMicrousd === undefined) throw unreadableAmount(limit);
          const input: BudgetInput = { scope, period, limitMicrousd, mode };
          if (scope !== 'account') input.scopeId = scopeId.trim();
          await admin.request(CREATE_BUDGET, { accountId, input });
          toast(`Added a ${period} ${mode} budget of ${formatMicrousd(limitMicrousd)} on the ${scope}.`, 'success');
          setLimit('');
          admin.changed();
        });
      }}
    >
      <div class="fields">
        <ChoiceSelect
          label="Scope"
          value={scope}
          choices={SCOPES}
          onChange={(value) => {
            setScope(value as Scope);
            setScopeId('');
          }}
        />
        {scope !== 'account' && (
          <Field label={`The ${scope}`} grow>
            {(id) => (
              <>
                <input id={id} list={`${id}-choices`} value={scopeId} placeholder={`${scope} id`} onInput={(event) => setScopeId(event.currentTarget.value)} />
                <datalist id={`${id}-choices`}>
                  {choices.map((c) => (
                    <option key={c.id} value={c.id} label={c.name} />
                  ))}
                </datalist>
              </>
            )}
          </Field>
        )}
        <ChoiceSelect label="Period" value={period} choices={PERIODS} onChange={setPeriod} />
        <MoneyField label="Limit (USD)" value={limit} onInput={setLimit} />
        <ChoiceSelect label="Mode" value={mode} choices={MODES} onChange={setMode} />
        <button type="submit" disabled={action.pending}>
          Add budget
        </button>
      </div>
      <ProblemNotice problem={action.problem} />
    </form>
  );
}
