import type { FailedAuthThrottle } from './failed-auth-throttle';
import type { KeyStore } from './key-store';
import type { Principal } from './principal';

/**
 * Turns the secret a client sent into its principal, on every door (REST,
 * GraphQL over HTTP, graphql-ws at connect and at each operation): a valid
 * key seen lately straight from the cache; anything else is looked up only
 * while its client address has failed checks to spare (`FailedAuthThrottle`),
 * and counts against them when it is not valid.
 */
export class KeyAuthenticator {
  constructor(
    private readonly keys: Pick<KeyStore, 'cached' | 'authenticate'>,
    private readonly throttle: FailedAuthThrottle,
  ) {}

  /** The principal of a valid key seen lately, without waiting a turn; undefined when `authenticate` must decide. */
  cachedValid(secret: string): Principal | undefined {
    return this.keys.cached(secret) ?? undefined;
  }

  /** The key's principal, or null when it is not valid; throws 429 for a client over its failures, 503 when keys cannot be checked. */
  async authenticate(secret: string, client: string): Promise<Principal | null> {
    const known = this.keys.cached(secret);
    if (known) return known;
    const refusal = this.throttle.refusal(client);
    if (refusal) throw refusal;
    // null: refused from memory (too long for a key, or an expired one cached), still a failure of this client.
    const principal = known === null ? null : await this.keys.authenticate(secret);
    if (!principal) this.throttle.failed(client);
    return principal;
  }
}
