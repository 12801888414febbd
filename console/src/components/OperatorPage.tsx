import type { ComponentChildren } from 'preact';
import { checkAdminToken } from '../lib/secret-check';
import type { StoredSecret } from '../lib/use-stored-secret';
import { useUniqueId } from '../lib/use-unique-id';
import { SecretForm } from './SecretForm';
import { SecretStatus } from './SecretStatus';

/**
 * A page of the operator's: its heading with the admin token in use, and
 * what it shows with the token (GATEWAY_ADMIN_TOKEN, kept apart from the
 * API key); without one, where to paste it.
 */
export function OperatorPage({ title, token, children }: { title: string; token: StoredSecret; children(token: string): ComponentChildren }) {
  const titleId = useUniqueId();
  return (
    <section aria-labelledby={titleId}>
      <header class="page-header">
        <h1 id={titleId}>{title}</h1>
        {token.value && <SecretStatus label="Admin token" secret={token.value} onForget={token.forget} />}
      </header>
      {token.value ? (
        children(token.value)
      ) : (
        <SecretForm
          title="I am the operator"
          label="Admin token"
          hint="The gateway's GATEWAY_ADMIN_TOKEN. The admin API is off when the gateway has none."
          check={checkAdminToken}
          onSave={token.save}
        />
      )}
    </section>
  );
}
