import { useState } from 'preact/hooks';
import { Field } from '../../components/Field';
import { ProblemNotice } from '../../components/ProblemNotice';
import { SecretReveal } from '../../components/SecretReveal';
import { useToast } from '../../components/Toasts';
import { parseList } from '../../lib/format';
import { useAction } from '../../lib/use-action';
import { CREATE_KEY, type ApiKey, type KeyInput, type Owner } from './admin-operations';
import type { AdminSession } from '../../lib/admin-session';

export interface CreateKeyFormProps {
  admin: AdminSession;
  /** The account it is for; left out: the default account. */
  accountId?: string;
  projects?: Owner[];
  members?: Owner[];
  /** Offered beside the new secret: use the key in this console. */
  onSignIn?(key: string): void;
}

/**
 * A new API key: its name, and optionally its models, search domains,
 * project, member (a new name makes one) and expiry. The answer's secret is
 * shown once, with a copy button, until the next key is made.
 */
export function CreateKeyForm({ admin, accountId, projects = [], members = [], onSignIn }: CreateKeyFormProps) {
  const [fields, setFields] = useState({ name: '', models: '', domains: '', project: '', member: '', expires: '' });
  const [created, setCreated] = useState<{ name: string; key: string }>();
  const action = useAction();
  const toast = useToast();
  const set = (field: keyof typeof fields) => (event: { currentTarget: HTMLInputElement }) => setFields({ ...fields, [field]: event.currentTarget.value });
  const submit = () =>
    action.run(async () => {
      const input: KeyInput = { name: fields.name };
      if (accountId) input.accountId = accountId;
      if (fields.models.trim()) input.models = parseList(fields.models);
      if (fields.domains.trim()) input.allowedDomains = parseList(fields.domains);
      if (fields.project.trim()) input.project = fields.project.trim();
      if (fields.member.trim()) input.member = fields.member.trim();
      if (fields.expires) input.expiresAt = new Date(fields.expires).toISOString();
      const { createKey } = await admin.request<{ createKey: ApiKey & { key: string } }>(CREATE_KEY, { input });
      setCreated({ name: createKey.name, key: createKey.key });
      setFields({ name: '', models: '', domains: '', project: '', member: '', expires: '' });
      admin.changed();
      toast(`Created key ${createKey.name}.`, 'success');
    });
  return (
    <div class="create-key">
      <form
        class="inline-form"
        aria-label="New key"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <div class="fields">
          <Field label="Key name" grow>
            {(id) => <input id={id} value={fields.name} placeholder="ci-runner" onInput={set('name')} />}
          </Field>
          <Field label="Models (empty: every model)" grow>
            {(id) => <input id={id} value={fields.models} placeholder="gpt-4.1-mini, fast" onInput={set('models')} />}
          </Field>
          <Field label="Search domains (empty: every domain)" grow>
            {(id) => <input id={id} value={fields.domains} placeholder="example.com" onInput={set('domains')} />}
          </Field>
          {accountId && (
            <>
              <Field label="Project">
                {(id) => (
                  <>
                    <input id={id} list={`${id}-choices`} value={fields.project} placeholder="none" onInput={set('project')} />
                    <NameChoices id={`${id}-choices`} owners={projects} />
                  </>
                )}
              </Field>
              <Field label="Member">
                {(id) => (
                  <>
                    <input id={id} list={`${id}-choices`} value={fields.member} placeholder="none" onInput={set('member')} />
                    <NameChoices id={`${id}-choices`} owners={members} />
                  </>
                )}
              </Field>
            </>
          )}
          <Field label="Expires (optional)">{(id) => <input id={id} type="datetime-local" value={fields.expires} onInput={set('expires')} />}</Field>
          <button type="submit" disabled={action.pending}>
            Create key
          </button>
        </div>
        <ProblemNotice problem={action.problem} />
      </form>
      {created && (
        <SecretReveal title={`New key ${created.name}`} secret={created.key}>
          {onSignIn && (
            <p>
              <button type="button" onClick={() => onSignIn(created.key)}>
                Sign in with this key
              </button>
            </p>
          )}
        </SecretReveal>
      )}
    </div>
  );
}

/** The names an account already has, offered as the field is typed (a new name makes a new one). */
function NameChoices({ id, owners }: { id: string; owners: Owner[] }) {
  return (
    <datalist id={id}>
      {owners.map((o) => (
        <option key={o.id} value={o.name} />
      ))}
    </datalist>
  );
}
