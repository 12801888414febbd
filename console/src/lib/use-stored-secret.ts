import { useCallback, useState } from 'preact/hooks';

export interface StoredSecret {
  /** The secret, or null until one is pasted. */
  value: string | null;
  /** Whether it is kept across browser restarts (localStorage) rather than for this tab only (sessionStorage). */
  remembered: boolean;
  save(value: string, remember: boolean): void;
  forget(): void;
}

/**
 * A secret pasted into the console (the API key, the admin token), kept in
 * this browser only: in sessionStorage (gone with the tab) unless the user
 * asks to remember it, then in localStorage. It is sent nowhere but to the
 * gateway's own API, as `Authorization: Bearer`. Forgetting clears both.
 */
export function useStoredSecret(name: string): StoredSecret {
  const [state, setState] = useState(() => read(name));
  const save = useCallback(
    (value: string, remember: boolean) => {
      clear(name);
      (remember ? localStorage : sessionStorage).setItem(name, value);
      setState({ value, remembered: remember });
    },
    [name],
  );
  const forget = useCallback(() => {
    clear(name);
    setState({ value: null, remembered: false });
  }, [name]);
  return { ...state, save, forget };
}

function read(name: string): { value: string | null; remembered: boolean } {
  const session = sessionStorage.getItem(name);
  if (session) return { value: session, remembered: false };
  const local = localStorage.getItem(name);
  return { value: local || null, remembered: Boolean(local) };
}

function clear(name: string): void {
  sessionStorage.removeItem(name);
  localStorage.removeItem(name);
}
