import { useState } from 'preact/hooks';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { StatusBadge } from '../../components/StatusBadge';
import { useToast } from '../../components/Toasts';
import { formatTime } from '../../lib/format';
import { graphqlRequest, type GraphqlEndpoint } from '../../lib/graphql-request';
import { REVOKE_CREDENTIAL, type Credential } from './credential-operations';

/** The key's credentials, newest first (revoked and expired ones for a while too); a live one is revoked after a confirmation. */
export function CredentialTable({ endpoint, credentials, onRevoked }: { endpoint: GraphqlEndpoint; credentials: Credential[]; onRevoked(): void }) {
  const [revoking, setRevoking] = useState<Credential>();
  const toast = useToast();
  if (credentials.length === 0) return <p class="muted">No credentials. Mint one above.</p>;
  const now = Date.now();
  return (
    <>
      <DataTable caption="Credentials" captionHidden columns={['Name', 'Prefix', 'Models', 'Search domains', 'Expires', 'State', { label: 'Actions', labelHidden: true }]}>
        {credentials.map((c) => {
          const expired = Date.parse(c.expiresAt) <= now;
          return (
            <tr key={c.id} data-credential-id={c.id}>
              <td>
                <div>{c.name}</div>
                <code class="muted small">{c.id}</code>
              </td>
              <td>
                <code>{c.keyPrefix}…</code>
              </td>
              <td class="small">{c.models.length ? c.models.join(', ') : "the key's"}</td>
              <td class="small">{c.allowedDomains.length ? c.allowedDomains.join(', ') : "the key's"}</td>
              <td class="nowrap">{formatTime(c.expiresAt)}</td>
              <td>{c.revokedAt ? <StatusBadge text="revoked" tone="bad" /> : expired ? <StatusBadge text="expired" tone="bad" /> : <StatusBadge text="active" tone="good" />}</td>
              <td class="actions-cell">
                {!c.revokedAt && !expired && (
                  <button type="button" class="link-button danger" aria-label={`Revoke credential ${c.name}`} onClick={() => setRevoking(c)}>
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          );
        })}
      </DataTable>
      {revoking && (
        <ConfirmDialog
          title={`Revoke credential ${revoking.name}?`}
          confirmLabel="Revoke"
          onConfirm={async () => {
            await graphqlRequest(endpoint, REVOKE_CREDENTIAL, { id: revoking.id });
            toast(`Revoked credential ${revoking.name}.`, 'success');
            onRevoked();
          }}
          onClose={() => setRevoking(undefined)}
        >
          <p>
            Every call with <code>{revoking.keyPrefix}…</code> is refused from now on, on every instance. A revoked credential cannot be restored.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
