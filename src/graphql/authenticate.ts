import { bearerToken } from '../http/auth';
import type { KeyAuthenticator } from '../keys/key-authenticator';
import type { Principal } from '../keys/principal';

/** The key's principal; null for no key or a key that is not valid (unknown, revoked, expired); throws for a client over its failed checks. */
export async function authenticate(keys: KeyAuthenticator, secret: string | undefined, client: string): Promise<Principal | null> {
  return secret ? keys.authenticate(secret, client) : null;
}

/**
 * The API key in graphql-ws connection params. Browsers cannot set headers
 * on a WebSocket, so clients send the header's value as `authorization`
 * (some libraries capitalise it) or the bare key as `apiKey`.
 */
export function connectionSecret(params: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const header = params?.authorization ?? params?.Authorization;
  if (typeof header === 'string') return bearerToken(header);
  return typeof params?.apiKey === 'string' && params.apiKey ? params.apiKey : undefined;
}
