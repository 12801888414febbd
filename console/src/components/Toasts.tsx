import { createContext, type ComponentChildren } from 'preact';
import { useCallback, useContext, useMemo, useRef, useState } from 'preact/hooks';

export type ToastTone = 'info' | 'success' | 'error';

interface Toast {
  id: number;
  text: string;
  tone: ToastTone;
  /** The page it was said on. */
  scope: string;
}

type PushToast = (text: string, tone?: ToastTone) => void;

const PushContext = createContext<PushToast>(() => undefined);
const ShownContext = createContext<{ toasts: Toast[]; dismiss(id: number): void }>({ toasts: [], dismiss: () => undefined });

const TOAST_MS = 8_000;
const MAX_TOASTS = 3;

/**
 * Short messages (a task finished, a key was revoked), gone after a few
 * seconds or when dismissed. They belong to the page they were said on: a
 * new `scope` (the route) clears them. Where they show is the layout's
 * choice (`ToastRegion`).
 */
export function ToastProvider({ scope, children }: { scope: string; children: ComponentChildren }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const current = useRef(scope);
  current.current = scope;
  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const push = useCallback<PushToast>(
    (text, tone = 'info') => {
      const id = nextId.current++;
      setToasts((list) => [...list.filter((t) => t.scope === current.current).slice(-(MAX_TOASTS - 1)), { id, text, tone, scope: current.current }]);
      window.setTimeout(() => dismiss(id), TOAST_MS);
    },
    [dismiss],
  );
  // Filtered as the new page renders, not an effect later: no frame shows the last page's toasts over the new one.
  const shown = useMemo(() => ({ toasts: toasts.filter((t) => t.scope === scope), dismiss }), [toasts, scope, dismiss]);
  return (
    <PushContext.Provider value={push}>
      <ShownContext.Provider value={shown}>{children}</ShownContext.Provider>
    </PushContext.Provider>
  );
}

/**
 * Where the toasts show: a polite live region in the page's flow, above the
 * page, so a toast moves the page down rather than covering a row or a
 * message of it. The region is always there (empty when quiet), so screen
 * readers announce what is added.
 */
export function ToastRegion() {
  const { toasts, dismiss } = useContext(ShownContext);
  return (
    <div class="toasts" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} class={`toast toast-${toast.tone}`}>
          <span>{toast.text}</span>
          <button type="button" class="link-button" aria-label="Dismiss" onClick={() => dismiss(toast.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

/** Shows a toast. */
export function useToast(): PushToast {
  return useContext(PushContext);
}
