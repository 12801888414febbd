import { useState } from 'preact/hooks';

/**
 * Copies a text to the clipboard and says so on the button. Where the
 * browser refuses (no clipboard permission, not a secure context), the
 * button says that instead; the text is still there to select.
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <button
      type="button"
      class="secondary"
      onClick={() =>
        navigator.clipboard.writeText(text).then(
          () => setState('copied'),
          () => setState('failed'),
        )
      }
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select it' : label}
    </button>
  );
}
