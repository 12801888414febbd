import { Field } from './Field';

export interface ChoiceSelectProps {
  label: string;
  value: string;
  /** The first option, value "", for no choice ("any model"); without it, one of the choices must be picked. */
  anyLabel?: string;
  choices: readonly string[];
  disabled?: boolean;
  onChange(value: string): void;
}

/**
 * A labelled select of plain string choices, after an "any" option when it
 * has one. The current value stays listed even when the choices no longer
 * hold it, so a filter never silently changes under the user.
 */
export function ChoiceSelect({ label, value, anyLabel, choices, disabled, onChange }: ChoiceSelectProps) {
  const options = value && !choices.includes(value) ? [value, ...choices] : choices;
  return (
    <Field label={label}>
      {(id) => (
        <select id={id} value={value} disabled={disabled} onChange={(event) => onChange(event.currentTarget.value)}>
          {anyLabel !== undefined && <option value="">{anyLabel}</option>}
          {options.map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
