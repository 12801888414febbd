import { inSentence } from '../lib/format';

/**
 * Which secret the console is using (only its first characters) and the
 * button that forgets it in this browser.
 */
export function SecretStatus({ label, secret, onForget }: { label: string; secret: string; onForget(): void }) {
  return (
    <div class="secret-status">
      <span>
        {label} <code>{secret.slice(0, 10)}…</code>
      </span>
      <button type="button" class="secondary" onClick={onForget}>
        Forget {inSentence(label)}
      </button>
    </div>
  );
}
