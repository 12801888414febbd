import { createContext, type ComponentChildren } from 'preact';
import { useCallback, useContext, useMemo, useRef, useState } from 'preact/hooks';

export type ToastTone = 'info' | 'success' | 'error';

interface Toast {
  id: number;
  text: string;
  tone: ToastTone;
}

type PushToast = (text: string, tone?: ToastTone) => void;

const ToastContext = createContext<PushToast>(() => undefined);

const TOAST_MS = 8_000;

/**
 * Short messages in the corner of the page (a task finished, a file was
 * uploaded), announced to screen readers through a polite live region and
 * gone after a few seconds or when dismissed.
 */
export function ToastProvider({ children }: { children: ComponentChildren }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const push = useCallback<PushToast>(
    (text, tone = 'info') => {
      const id = nextId.current++;
      setToasts((list) => [...list.slice(-4), { id, text, tone }]);
      window.setTimeout(() => dismiss(id), TOAST_MS);
    },
    [dismiss],
  );
  const value = useMemo(() => push, [push]);
  return (
    <ToastContext.Provider value={value}>
      {children}
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
    </ToastContext.Provider>
  );
}

/** Shows a toast. */
export function useToast(): PushToast {
  return useContext(ToastContext);
}
