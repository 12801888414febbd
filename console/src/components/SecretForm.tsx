import { useState } from 'preact/hooks';
import { inSentence } from '../lib/format';
import { useAction } from '../lib/use-action';
import { useUniqueId } from '../lib/use-unique-id';
import { ProblemNotice } from './ProblemNotice';

export interface SecretFormProps {
  /** What the secret is, for the field and the button: "API key", "Admin token". */
  label: string;
  /** The form's heading; the label when not given. */
  title?: string;
  /** One sentence on where to get it. */
  hint: string;
  placeholder?: string;
  /** Tries the secret against the gateway; a rejection is shown and the secret is not kept. */
  check(secret: string): Promise<void>;
  onSave(secret: string, remember: boolean): void;
}

/**
 * Where a secret is pasted: a password field (not shown on screen, not
 * offered to password managers' autofill), and whether to remember it in
 * this browser beyond the tab. The secret is checked with the gateway
 * first and kept only when accepted; a refused one stays in the field with
 * the gateway's error, to be corrected and tried again.
 */
export function SecretForm({ label, title, hint, placeholder, check, onSave }: SecretFormProps) {
  const [value, setValue] = useState('');
  const [remember, setRemember] = useState(false);
  const action = useAction();
  const id = useUniqueId();
  return (
    <form
      class="card secret-form"
      aria-label={title ?? label}
      onSubmit={(event) => {
        event.preventDefault();
        const secret = value.trim();
        if (secret) void action.run(async () => {
          await check(secret);
          onSave(secret, remember);
        });
      }}
    >
      <h2>{title ?? label}</h2>
      <p class="muted">{hint}</p>
      <label for={id}>{label}</label>
      <input
        id={id}
        type="password"
        autocomplete="off"
        spellcheck={false}
        required
        placeholder={placeholder}
        value={value}
        aria-invalid={action.problem ? true : undefined}
        onInput={(event) => {
          setValue(event.currentTarget.value);
          action.clear();
        }}
      />
      <label class="checkbox">
        <input type="checkbox" checked={remember} onChange={(event) => setRemember(event.currentTarget.checked)} />
        Remember in this browser (otherwise it is forgotten when the tab closes)
      </label>
      <ProblemNotice problem={action.problem} />
      <button type="submit" disabled={action.pending}>
        {action.pending ? 'Checking…' : `Use this ${inSentence(label)}`}
      </button>
    </form>
  );
}
