import { ChoiceSelect } from '../../components/ChoiceSelect';
import { Field } from '../../components/Field';
import type { RecordFilterArgs } from './use-record-filter-args';
import { ANY, OUTCOMES, type RequestOutcome, type UsageFilter } from './usage-filter';

export interface FilterChoices {
  models: string[];
  endpoints: string[];
}

/**
 * The filters: model, endpoint, UTC day and status (succeeded: answered
 * below 400; failed: 400 and above). Each applies as soon as
 * it changes. Endpoint and status need a gateway whose `usageRecords`
 * takes them; on an older one they are disabled and say so.
 */
export function UsageFilters({ filter, choices, args, onChange }: { filter: UsageFilter; choices: FilterChoices; args: RecordFilterArgs | undefined; onChange(next: UsageFilter): void }) {
  const set = (field: Exclude<keyof UsageFilter, 'status'>) => (value: string) => onChange({ ...filter, [field]: value });
  const missing = args ? (['endpoint', 'status'] as const).filter((name) => !args[name]) : [];
  return (
    <form class="card filters" aria-label="Usage filters" onSubmit={(event) => event.preventDefault()}>
      <div class="fields">
        <ChoiceSelect label="Model" anyLabel="any model" value={filter.model} choices={choices.models} onChange={set('model')} />
        <ChoiceSelect label="Endpoint" anyLabel="any endpoint" value={filter.endpoint} choices={choices.endpoints} disabled={!args?.endpoint} onChange={set('endpoint')} />
        <Field label="Day (UTC)">{(id) => <input id={id} type="date" value={filter.day} onChange={(event) => set('day')(event.currentTarget.value)} />}</Field>
        <ChoiceSelect
          label="Status"
          anyLabel="any status"
          value={filter.status}
          choices={OUTCOMES}
          disabled={!args?.status}
          onChange={(value) => onChange({ ...filter, status: value as '' | RequestOutcome })}
        />
        <button type="button" class="secondary" onClick={() => onChange(ANY)}>
          Clear filters
        </button>
      </div>
      {missing.length > 0 && (
        <p class="muted small">
          This gateway’s <code>usageRecords</code> does not filter by {missing.join(' or ')} yet; those filters come with a newer gateway.
        </p>
      )}
    </form>
  );
}
