import type { ComponentChildren } from 'preact';
import { useUniqueId } from '../lib/use-unique-id';

/**
 * A form control under its label, tied by `for`/`id` (not by wrapping), so
 * the control's accessible name is the label alone, not the label plus a
 * select's options. `children` gets the id to put on the control.
 */
export function Field({ label, grow, children }: { label: string; grow?: boolean; children: (id: string) => ComponentChildren }) {
  const id = useUniqueId();
  return (
    <div class={grow ? 'field grow' : 'field'}>
      <label for={id}>{label}</label>
      {children(id)}
    </div>
  );
}
