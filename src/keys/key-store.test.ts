import { pgliteDatabase } from '../../test/support/pglite-database';
import type { Database } from '../db/database';
import type { Principal } from './principal';
import * as keySecret from './key-secret';
import { DEFAULT_KEY_CACHE_LIMITS, KeyStore, STALE_WHILE_UNREACHABLE_MS } from './key-store';

const { hashKeySecret, MAX_KEY_SECRET_LENGTH, newKeySecret } = keySecret;

/** A database that knows one key and counts the lookups that reach it. */
function fakeDatabase(realSecret: string) {
  const realHash = hashKeySecret(realSecret);
  const lookups: string[] = [];
  const db = {
    prisma: {} as Database['prisma'],
    async query<Row>(_sql: string, params: unknown[]) {
      lookups.push(params[0] as string);
      const rows = params[0] === realHash
        ? [{ id: 'key_real', account_id: 'acct_default', project_id: null, member_id: null, name: 'real', allowed_models: [], expires_at: null, revoked_at: null }]
        : [];
      return { rows: rows as Row[], rowCount: rows.length };
    },
  };
  return { db, lookups };
}

const refusalKeys = (store: KeyStore): string[] => [...(store as unknown as { refusals: Map<string, number> }).refusals.keys()];

describe('key caches', () => {
  it('admits a key verified within the hour while the database cannot be asked, and refuses any other with a 503', async () => {
    const real = newKeySecret();
    const { db } = fakeDatabase(real);
    const store = new KeyStore(db, 30_000);
    const t0 = 1_000_000;
    expect((await store.authenticate(real, t0))?.keyId).toBe('key_real');
    db.query = async () => {
      throw new Error('connect ECONNREFUSED');
    };
    // Past the cache's 30 s: the lookup fails, the verified key still passes.
    expect((await store.authenticate(real, t0 + 60_000))?.keyId).toBe('key_real');
    expect(await store.authenticate(real, t0 + 30_000 + STALE_WHILE_UNREACHABLE_MS + 1).catch((e: { code?: string }) => e.code)).toBe('key_check_unavailable');
    expect(await store.authenticate(newKeySecret(), t0 + 60_000).catch((e: { code?: string; status?: number }) => [e.code, e.status])).toEqual(['key_check_unavailable', 503]);
  });

  it('refuses a bearer string longer than any key without hashing, looking it up or caching it', async () => {
    const real = newKeySecret();
    const { db, lookups } = fakeDatabase(real);
    const store = new KeyStore(db, 30_000);
    const hashing = jest.spyOn(keySecret, 'hashKeySecret');
    const huge = `sk-gw-${'A'.repeat(15 * 1024)}`;
    expect(store.cached(huge)).toBeNull();
    expect(await store.authenticate(huge)).toBeNull();
    expect(await store.authenticate('x'.repeat(MAX_KEY_SECRET_LENGTH + 1))).toBeNull();
    expect(hashing).not.toHaveBeenCalled();
    expect(lookups).toHaveLength(0);
    expect(store.cacheSizes()).toEqual({ keys: 0, refusals: 0 });
    // At the bound, a string is still looked up (and refused from the database).
    expect(await store.authenticate('x'.repeat(MAX_KEY_SECRET_LENGTH))).toBeNull();
    expect(lookups).toHaveLength(1);
  });

  it('keeps refused keys by digest, never by the secret, in their own bounded cache that cannot evict real keys', async () => {
    const real = newKeySecret();
    const { db, lookups } = fakeDatabase(real);
    const store = new KeyStore(db, 30_000);
    expect((await store.authenticate(real))?.keyId).toBe('key_real');

    const bogus = Array.from({ length: DEFAULT_KEY_CACHE_LIMITS.maxCachedKeys + 500 }, (_, i) => `sk-gw-bogus-${i}-${'b'.repeat(200)}`);
    for (const secret of bogus) expect(await store.authenticate(secret)).toBeNull();
    expect(store.cacheSizes()).toEqual({ keys: 1, refusals: DEFAULT_KEY_CACHE_LIMITS.maxCachedRefusals });
    const remembered = refusalKeys(store);
    expect(remembered).toContain(hashKeySecret(bogus[bogus.length - 1]!));
    expect(remembered.some((k) => k.includes('bogus'))).toBe(false);

    const before = lookups.length;
    expect(store.cached(real)?.keyId).toBe('key_real');
    expect((await store.authenticate(real))?.keyId).toBe('key_real');
    expect(lookups.length).toBe(before);
  });

  it('answers a repeated bad key from memory, and keeps it while a flood of others churns the refusals', async () => {
    const { db, lookups } = fakeDatabase(newKeySecret());
    const store = new KeyStore(db, 30_000, { maxCachedKeys: 10, maxCachedRefusals: 4 });
    const retried = 'sk-gw-misconfigured-client';
    expect(await store.authenticate(retried)).toBeNull();
    for (let i = 0; i < 20; i++) {
      expect(await store.authenticate(`sk-gw-flood-${i}`)).toBeNull();
      expect(await store.authenticate(retried)).toBeNull();
    }
    expect(lookups.filter((hash) => hash === hashKeySecret(retried))).toHaveLength(1);
    expect(store.cacheSizes().refusals).toBe(4);
  });

  it('forgets a refusal after the cache time', async () => {
    const { db, lookups } = fakeDatabase(newKeySecret());
    const store = new KeyStore(db, 1000);
    await store.authenticate('sk-gw-unknown', 0);
    await store.authenticate('sk-gw-unknown', 999);
    expect(lookups).toHaveLength(1);
    await store.authenticate('sk-gw-unknown', 1000);
    expect(lookups).toHaveLength(2);
  });
});

describe('revocation against a lookup in flight (PGlite)', () => {
  const database = pgliteDatabase();

  it('does not cache a key whose lookup read it before a revocation that finished first', async () => {
    const { store, startLookup, release } = gatedStore();
    const { key, view } = await store.create({ name: 'racing' });
    const inFlight = await startLookup(key); // the lookup has read the row, unrevoked
    expect((await store.revoke(view.id))?.revoked_at).not.toBeNull();
    release();

    // The request that was already in flight is answered as it was read; the key is not cached.
    expect((await inFlight.answer)?.keyId).toBe(view.id);
    expect(store.cached(key)).toBeUndefined();
    expect(await store.authenticate(key)).toBeNull();
    expect(store.cacheSizes().keys).toBe(0);
  });

  /** A store whose lookups read the database at once, then wait until `release` before answering. */
  function gatedStore(limits = DEFAULT_KEY_CACHE_LIMITS) {
    let gate: Promise<void> | undefined;
    let open: (() => void) | undefined;
    let onRead: (() => void) | undefined;
    const gated: Pick<Database, 'prisma' | 'query'> = {
      prisma: database().prisma,
      // Only the lookup's read waits at the gate; other statements (a revocation) go through.
      async query(sql, params) {
        const result = await database().query(sql, params);
        const reading = onRead;
        if (reading) {
          onRead = undefined;
          reading();
          await gate;
        }
        return result as never;
      },
    };
    const store = new KeyStore(gated, 60_000, limits);
    return {
      store,
      /** Starts a lookup and resolves once it has read the row; its answer waits for `release`. */
      async startLookup(secret: string): Promise<{ answer: Promise<Principal | null> }> {
        gate = new Promise<void>((resolve) => (open = resolve));
        const read = new Promise<void>((resolve) => (onRead = resolve));
        const answer = store.authenticate(secret);
        await read;
        onRead = undefined;
        return { answer };
      },
      release() {
        open?.();
        gate = undefined;
      },
    };
  }

  it('does not cache a key another instance revoked while the lookup was in flight (the change message arrived mid-lookup)', async () => {
    const instanceA = new KeyStore(database(), 60_000);
    const b = gatedStore();
    const { key, view } = await instanceA.create({ name: 'revoked elsewhere' });
    const inFlight = await b.startLookup(key);
    await instanceA.revoke(view.id);
    b.store.forget(view.id); // what instance B's key-change listener does when the message arrives
    b.release();

    expect((await inFlight.answer)?.keyId).toBe(view.id);
    expect(b.store.cached(key)).toBeUndefined();
    expect(await b.store.authenticate(key)).toBeNull();
  });

  it('caches a key looked up after it was forgotten, and forgets no other key', async () => {
    const b = gatedStore();
    const changed = await b.store.create({ name: 'changed' });
    const other = await b.store.create({ name: 'other' });
    const changedLookup = await b.startLookup(changed.key);
    b.store.forget(changed.view.id);
    b.release();
    await changedLookup.answer;
    const otherLookup = await b.startLookup(other.key);
    b.release();
    await otherLookup.answer;
    expect(b.store.cached(changed.key)).toBeUndefined();
    expect(b.store.cached(other.key)?.keyId).toBe(other.view.id);

    expect((await b.store.authenticate(changed.key))?.keyId).toBe(changed.view.id);
    expect(b.store.cached(changed.key)?.keyId).toBe(changed.view.id);
    b.store.forget(changed.view.id);
    expect(b.store.cached(changed.key)).toBeUndefined();
    expect(b.store.cached(other.key)?.keyId).toBe(other.view.id);
  });

  it('still refuses to cache a forgotten key after more keys were forgotten than its bookkeeping holds', async () => {
    const b = gatedStore({ maxCachedKeys: 2, maxCachedRefusals: 2 });
    const { key, view } = await b.store.create({ name: 'pushed out' });
    const inFlight = await b.startLookup(key);
    b.store.forget(view.id);
    for (let i = 0; i < 5; i++) b.store.forget(`key_other_${i}`);
    b.release();
    expect((await inFlight.answer)?.keyId).toBe(view.id);
    expect(b.store.cached(key)).toBeUndefined();
    // With no lookup in flight the bookkeeping is cleared, and the key is cached again when read.
    expect((await b.store.authenticate(key))?.keyId).toBe(view.id);
    expect(b.store.cached(key)?.keyId).toBe(view.id);
  });

  it('still caches keys looked up after the revocation of another', async () => {
    const store = new KeyStore(database(), 60_000);
    const kept = await store.create({ name: 'kept' });
    const gone = await store.create({ name: 'gone' });
    await store.revoke(gone.view.id);
    expect((await store.authenticate(kept.key))?.keyId).toBe(kept.view.id);
    expect(store.cached(kept.key)?.keyId).toBe(kept.view.id);
    expect(await store.authenticate(gone.key)).toBeNull();
  });
});
