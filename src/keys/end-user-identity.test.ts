import { endUserIdentity } from './end-user-identity';
import type { Principal } from './principal';

const principal = (keyId: string, parentKeyId: string | null = null) => ({ keyId, parentKeyId }) as Principal;

describe('the end-user identity an upstream sees', () => {
  it('is stable for one key and value, 64 hex characters, never the client value', () => {
    const id = endUserIdentity(principal('key_a'), 'alice');
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(endUserIdentity(principal('key_a'), 'alice')).toBe(id);
    expect(endUserIdentity(principal('key_a'), 'bob')).not.toBe(id);
  });

  it("differs between keys for the same value, and a temporary credential speaks for its key", () => {
    expect(endUserIdentity(principal('key_b'), 'alice')).not.toBe(endUserIdentity(principal('key_a'), 'alice'));
    expect(endUserIdentity(principal('cred_1', 'key_a'), 'alice')).toBe(endUserIdentity(principal('key_a'), 'alice'));
  });

});
