import { useCallback, useState } from 'preact/hooks';

export interface CursorPages {
  /** The `after` argument of the page shown: null on the first page. */
  after: string | null;
  /** 1 on the first page. */
  number: number;
  next(endCursor: string): void;
  previous(): void;
  /** Back to the first page (when a filter changes). */
  reset(): void;
}

/**
 * Paging through a GraphQL connection (`first`/`after`, `pageInfo`): the
 * cursors of the pages already seen are kept, so Previous goes back without
 * a `before` argument the API does not have.
 */
export function useCursorPages(): CursorPages {
  const [stack, setStack] = useState<Array<string | null>>([null]);
  const next = useCallback((endCursor: string) => setStack((s) => [...s, endCursor]), []);
  const previous = useCallback(() => setStack((s) => (s.length > 1 ? s.slice(0, -1) : s)), []);
  const reset = useCallback(() => setStack([null]), []);
  return { after: stack[stack.length - 1] ?? null, number: stack.length, next, previous, reset };
}
