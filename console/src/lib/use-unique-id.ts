import { useState } from 'preact/hooks';

let last = 0;

/**
 * An id unique on the page for as long as the component lives (a label's
 * `for`, a dialog's `aria-labelledby`). Preact's own `useId` derives ids
 * from the tree's shape, and gives two forms mounted at different times
 * the same one, so a label would name another form's field.
 */
export function useUniqueId(): string {
  return useState(() => `id-${++last}`)[0];
}
