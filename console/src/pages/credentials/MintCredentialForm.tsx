import { useState } from 'preact/hooks';
import { Field } from '../../components/Field';
import { MoneyField } from '../../components/MoneyField';
import { ProblemNotice } from '../../components/ProblemNotice';
import { SecretReveal } from '../../components/SecretReveal';
import { useToast } from '../../components/Toasts';
import { unreadableAmount } from '../../lib/amount-problem';
import { parseList, parseUsd } from '../../lib/format';
import { graphqlRequest, type GraphqlEndpoint } from '../../lib/graphql-request';
import { useAction } from '../../lib/use-action';
import { CREATE_CREDENTIAL, LIFETIMES, type Credential, type CredentialInput } from './credential-operations';

/**
 * Mints a credential: a name, how long it lives, and optionally its models,
 * search domains (each within the key's own) and a hard total budget of
 * its own. Its secret is shown once, with a copy button.
 */
export function MintCredentialForm({ endpoint, onMinted }: { endpoint: GraphqlEndpoint; onMinted(): void }) {
  const [fields, setFields] = useState({ name: '', expiresIn: String(LIFETIMES[1]!.seconds), models: '', domains: '', budget: '' });
  const [minted, setMinted] = useState<{ name: string; key: string }>();
  const action = useAction();
  const toast = useToast();
  const set = (field: keyof typeof fields) => (value: string) => setFields({ ...fields, [field]: value });
  return (
    <section class="card" aria-labelledby="mint-title">
      <h2 id="mint-title">New credential</h2>
      <form
        class="inline-form"
        aria-label="New credential"
        onSubmit={(event) => {
          event.preventDefault();
          void action.run(async () => {
            const input: CredentialInput = { expiresIn: Number(fields.expiresIn) };
            if (fields.name.trim()) input.name = fields.name.trim();
            if (fields.models.trim()) input.models = parseList(fields.models);
            if (fields.domains.trim()) input.allowedDomains = parseList(fields.domains);
            if (fields.budget.trim()) {
              const budget = parseUsd(fields.budget);
              if (budget === undefined) throw unreadableAmount(fields.budget);
              input.budgetMicrousd = budget;
            }
            const { createCredential } = await graphqlRequest<{ createCredential: Credential & { key: string } }>(endpoint, CREATE_CREDENTIAL, { input });
            setMinted({ name: createCredential.name, key: createCredential.key });
            setFields({ ...fields, name: '', budget: '' });
            toast(`Minted credential ${createCredential.name}.`, 'success');
            onMinted();
          });
        }}
      >
        <div class="fields">
          <Field label="Name" grow>
            {(id) => <input id={id} value={fields.name} placeholder="browser" onInput={(event) => set('name')(event.currentTarget.value)} />}
          </Field>
          <Field label="Lives for">
            {(id) => (
              <select id={id} value={fields.expiresIn} onChange={(event) => set('expiresIn')(event.currentTarget.value)}>
                {LIFETIMES.map((l) => (
                  <option key={l.seconds} value={String(l.seconds)}>
                    {l.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Models (empty: the key's)" grow>
            {(id) => <input id={id} value={fields.models} placeholder="gpt-4.1-mini" onInput={(event) => set('models')(event.currentTarget.value)} />}
          </Field>
          <Field label="Search domains (empty: the key's)" grow>
            {(id) => <input id={id} value={fields.domains} placeholder="example.com" onInput={(event) => set('domains')(event.currentTarget.value)} />}
          </Field>
          <MoneyField label="Budget (USD, optional)" value={fields.budget} placeholder="none" onInput={set('budget')} />
          <button type="submit" disabled={action.pending}>
            Mint credential
          </button>
        </div>
        <ProblemNotice problem={action.problem} />
      </form>
      {minted && <SecretReveal title={`New credential ${minted.name}`} secret={minted.key} />}
    </section>
  );
}
