import type { ComponentChildren } from 'preact';
import { CopyButton } from './CopyButton';

/**
 * A secret the gateway showed this once (a new key, a new credential): in
 * full, with a copy button, and the warning that it cannot be shown again.
 * It lives only in the page's state: leaving the page forgets it.
 */
export function SecretReveal({ title, secret, children }: { title: string; secret: string; children?: ComponentChildren }) {
  return (
    <section class="secret-reveal" aria-label={title}>
      <h3>{title}</h3>
      <p class="muted small">Copy it now: the gateway keeps only its digest and will not show it again.</p>
      <div class="secret-value">
        <code data-secret>{secret}</code>
        <CopyButton text={secret} label="Copy" />
      </div>
      {children}
    </section>
  );
}
