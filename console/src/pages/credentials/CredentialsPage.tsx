import { useMemo, useState } from 'preact/hooks';
import { ProblemNotice } from '../../components/ProblemNotice';
import { GRAPHQL_PATH } from '../../lib/graphql-request';
import { useGraphqlQuery } from '../../lib/use-graphql-query';
import { CREDENTIALS_QUERY, type Credential } from './credential-operations';
import { CredentialTable } from './CredentialTable';
import { MintCredentialForm } from './MintCredentialForm';

/**
 * Credentials: short-lived keys the signed-in key mints for itself (for a
 * browser, a job, a contractor), never wider than it; each secret is shown
 * once, and any live one is revoked after a confirmation.
 */
export function CredentialsPage({ apiKey }: { apiKey: string }) {
  const endpoint = useMemo(() => ({ path: GRAPHQL_PATH, secret: apiKey }), [apiKey]);
  const [revision, setRevision] = useState(0);
  const changed = () => setRevision((n) => n + 1);
  const list = useGraphqlQuery<{ credentials: Credential[] }>(endpoint, CREDENTIALS_QUERY, {}, revision);
  return (
    <section aria-labelledby="credentials-title">
      <header class="page-header">
        <h1 id="credentials-title">Credentials</h1>
      </header>
      <MintCredentialForm endpoint={endpoint} onMinted={changed} />
      <ProblemNotice problem={list.problem} />
      {list.data && <CredentialTable endpoint={endpoint} credentials={list.data.credentials} onRevoked={changed} />}
    </section>
  );
}
