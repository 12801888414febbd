import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { useAction } from '../lib/use-action';
import { useUniqueId } from '../lib/use-unique-id';
import { ProblemNotice } from './ProblemNotice';

export interface ConfirmDialogProps {
  /** The question, also the dialog's name: "Revoke key ci-runner?". */
  title: string;
  /** The button that does it: "Revoke", "Top up". */
  confirmLabel: string;
  /** The write; a rejection keeps the dialog open with the gateway's error. */
  onConfirm(): Promise<void>;
  /** Closes the dialog: after the write succeeded, or on Cancel or Escape. */
  onClose(): void;
  /** What exactly will happen, in a sentence or a short list. */
  children?: ComponentChildren;
}

/**
 * A modal question before a write that moves money or takes access away.
 * Confirm runs the write here: while it runs the buttons wait; when the
 * gateway refuses, its error shows in the dialog (the user is looking at
 * it), and Cancel closes it without trying again.
 */
export function ConfirmDialog({ title, confirmLabel, onConfirm, onClose, children }: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useUniqueId();
  const action = useAction();
  useEffect(() => {
    const dialog = ref.current!;
    dialog.showModal();
    return () => dialog.close();
  }, []);
  return (
    <dialog
      ref={ref}
      class="confirm-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        if (!action.pending) onClose();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children && <div class="confirm-details">{children}</div>}
      <ProblemNotice problem={action.problem} />
      <div class="dialog-buttons">
        <button type="button" class="secondary" disabled={action.pending} onClick={onClose}>
          Cancel
        </button>
        <button type="button" class="danger" disabled={action.pending} onClick={() => void action.run(onConfirm).then((done) => done && onClose())}>
          {action.pending ? 'Working…' : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
