/** The temporary credentials of the signed-in key, over /graphql (the same calls as /api/credentials). */

export interface Credential {
  id: string;
  name: string;
  keyPrefix: string;
  models: string[];
  allowedDomains: string[];
  expiresAt: string;
  revokedAt: string | null;
  createdAt: string;
}

const CREDENTIAL_FIELDS = 'id name keyPrefix models allowedDomains expiresAt revokedAt createdAt';

export const CREDENTIALS_QUERY = `query ConsoleCredentials { credentials { ${CREDENTIAL_FIELDS} } }`;

export interface CredentialInput {
  name?: string;
  expiresIn: number;
  models?: string[];
  allowedDomains?: string[];
  budgetMicrousd?: number;
}

export const CREATE_CREDENTIAL = `mutation ConsoleCreateCredential($input: CreateCredentialInput!) {
  createCredential(input: $input) { ${CREDENTIAL_FIELDS} key budget { limitMicrousd } }
}`;

export const REVOKE_CREDENTIAL = `mutation ConsoleRevokeCredential($id: ID!) { revokeCredential(id: $id) { id revokedAt } }`;

/** How long a new credential lives: the gateway takes 60 s to 7 days. */
export const LIFETIMES: ReadonlyArray<{ label: string; seconds: number }> = [
  { label: '15 minutes', seconds: 15 * 60 },
  { label: '1 hour', seconds: 60 * 60 },
  { label: '1 day', seconds: 24 * 60 * 60 },
  { label: '7 days', seconds: 7 * 24 * 60 * 60 },
];
