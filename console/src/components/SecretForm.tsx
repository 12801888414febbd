import { useId, useState } from 'preact/hooks';
import { inSentence } from '../lib/format';

export interface SecretFormProps {
  /** What the secret is, for the label and the button: "API key", "Admin token". */
  label: string;
  /** One sentence on where to get it. */
  hint: string;
  placeholder?: string;
  onSave(secret: string, remember: boolean): void;
}

/**
 * Where a secret is pasted: a password field (not shown on screen, not
 * offered to password managers' autofill), and whether to remember it in
 * this browser beyond the tab. Used for the API key and the admin token.
 */
export function SecretForm({ label, hint, placeholder, onSave }: SecretFormProps) {
  const [value, setValue] = useState('');
  const [remember, setRemember] = useState(false);
  const id = useId();
  return (
    <form
      class="card secret-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (value.trim()) onSave(value.trim(), remember);
      }}
    >
      <h2>{label}</h2>
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
        onInput={(event) => setValue(event.currentTarget.value)}
      />
      <label class="checkbox">
        <input type="checkbox" checked={remember} onChange={(event) => setRemember(event.currentTarget.checked)} />
        Remember in this browser (otherwise it is forgotten when the tab closes)
      </label>
      <button type="submit">Use this {inSentence(label)}</button>
    </form>
  );
}
