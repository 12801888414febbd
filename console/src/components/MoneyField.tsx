import { Field } from './Field';

/**
 * An amount in US dollars as typed (`5`, `0.25`, `-1`): a text field, so a
 * sign or a stray character reaches the check the caller makes
 * (`parseUsd`), and whatever parses goes to the gateway, which says what
 * it accepts.
 */
export function MoneyField({ label, value, placeholder, onInput }: { label: string; value: string; placeholder?: string; onInput(value: string): void }) {
  return (
    <Field label={label}>
      {(id) => (
        <input id={id} class="money" inputMode="decimal" autocomplete="off" value={value} placeholder={placeholder ?? '0.00'} onInput={(event) => onInput(event.currentTarget.value)} />
      )}
    </Field>
  );
}
