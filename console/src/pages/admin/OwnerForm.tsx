import { useState } from 'preact/hooks';
import { Field } from '../../components/Field';
import { ProblemNotice } from '../../components/ProblemNotice';
import { useToast } from '../../components/Toasts';
import { useAction } from '../../lib/use-action';
import { CREATE_MEMBER, CREATE_PROJECT } from './admin-operations';
import type { AdminSession } from '../../lib/admin-session';

/** A project or member of the account by name (an existing name answers the existing one). */
export function OwnerForm({ admin, accountId, kind }: { admin: AdminSession; accountId: string; kind: 'project' | 'member' }) {
  const [name, setName] = useState('');
  const action = useAction();
  const toast = useToast();
  const label = kind === 'project' ? 'New project' : 'New member';
  return (
    <form
      class="inline-form"
      aria-label={`Add a ${kind}`}
      onSubmit={(event) => {
        event.preventDefault();
        void action.run(async () => {
          await admin.request(kind === 'project' ? CREATE_PROJECT : CREATE_MEMBER, { accountId, name });
          toast(`Added ${kind} ${name.trim()}.`, 'success');
          setName('');
          admin.changed();
        });
      }}
    >
      <div class="fields">
        <Field label={label} grow>
          {(id) => <input id={id} value={name} onInput={(event) => setName(event.currentTarget.value)} />}
        </Field>
        <button type="submit" class="secondary" disabled={action.pending}>
          Add {kind}
        </button>
      </div>
      <ProblemNotice problem={action.problem} />
    </form>
  );
}
