import { useState } from 'preact/hooks';
import { Field } from '../../components/Field';
import { ProblemNotice } from '../../components/ProblemNotice';
import { useToast } from '../../components/Toasts';
import { useAction } from '../../lib/use-action';
import { CREATE_ACCOUNT } from './admin-operations';
import type { AdminSession } from '../../lib/admin-session';

/** A new customer account by name; it is shown at once. */
export function CreateAccountForm({ admin, onCreated }: { admin: AdminSession; onCreated(id: string): void }) {
  const [name, setName] = useState('');
  const action = useAction();
  const toast = useToast();
  return (
    <form
      class="inline-form"
      aria-label="Create an account"
      onSubmit={(event) => {
        event.preventDefault();
        void action.run(async () => {
          const { createAccount } = await admin.request<{ createAccount: { id: string; name: string } }>(CREATE_ACCOUNT, { name });
          setName('');
          admin.changed();
          onCreated(createAccount.id);
          toast(`Created account ${createAccount.name}.`, 'success');
        });
      }}
    >
      <div class="fields">
        <Field label="New account" grow>
          {(id) => <input id={id} value={name} placeholder="Acme Inc." onInput={(event) => setName(event.currentTarget.value)} />}
        </Field>
        <button type="submit" disabled={action.pending}>
          Create account
        </button>
      </div>
      <ProblemNotice problem={action.problem} />
    </form>
  );
}
