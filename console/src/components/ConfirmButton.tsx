import { useState } from 'preact/hooks';

/**
 * A button for something that cannot be undone: the first click asks
 * ("Delete notes.txt?" with Confirm and Cancel), the second does it. No
 * modal dialog, so focus stays where the user is.
 */
export function ConfirmButton({ label, question, onConfirm }: { label: string; question: string; onConfirm(): void }) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" class="link-button danger" onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span class="confirm" role="group" aria-label={question}>
      <span>{question}</span>
      <button
        type="button"
        class="danger"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        Confirm
      </button>
      <button type="button" class="secondary" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
