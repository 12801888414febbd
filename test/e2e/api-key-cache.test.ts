import { DEFAULT_KEY_CACHE_LIMITS } from '../../src/keys/key-store';
import { startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

describe.each(TEST_DATABASES)('bogus API keys cannot fill memory or push real keys out (%s)', (database) => {
  let t: TestGateway;
  let key: string;

  beforeAll(async () => {
    // The caches themselves are under test: the throttle on failed checks per address would refuse the flood first,
    // and the real key's 30 s cache time could run out during a flood that is slow on a loaded machine.
    t = await startTestGateway({ database, env: { GATEWAY_AUTH_FAILURES_PER_MINUTE: '0', GATEWAY_KEY_CACHE_MS: '600000' } });
    key = await t.createKey({ name: 'real' });
  });
  afterAll(() => t?.close());

  const models = async (secret: string) => {
    const res = await fetch(`${t.url}/v1/models`, { headers: { authorization: `Bearer ${secret}` } });
    return { status: res.status, body: (await res.json()) as { error?: { code: string } } };
  };

  it('refuses a 15 KB bearer string as invalid_api_key without caching it', async () => {
    expect((await models(key)).status).toBe(200);
    const sizes = t.gateway.services.keys.cacheSizes();
    for (let i = 0; i < 200; i++) {
      const answer = await models(`sk-gw-${String(i).padStart(6, '0')}${'A'.repeat(15 * 1024)}`);
      expect(answer).toEqual({ status: 401, body: { error: expect.objectContaining({ code: 'invalid_api_key' }) } });
    }
    expect(t.gateway.services.keys.cacheSizes()).toEqual(sizes);
  });

  it('keeps a real key cached through more distinct bogus keys than the caches hold', async () => {
    expect((await models(key)).status).toBe(200);
    const flood = DEFAULT_KEY_CACHE_LIMITS.maxCachedRefusals + 200;
    for (let start = 0; start < flood; start += 25) {
      await Promise.all(Array.from({ length: 25 }, async (_, i) => {
        expect((await models(`sk-gw-bogus${String(start + i).padStart(35, '0')}`)).status).toBe(401);
      }));
    }
    const { keys, refusals } = t.gateway.services.keys.cacheSizes();
    expect(refusals).toBe(DEFAULT_KEY_CACHE_LIMITS.maxCachedRefusals);
    expect(keys).toBe(1);
    expect(t.gateway.services.keys.cached(key)).not.toBeUndefined();
    expect((await models(key)).status).toBe(200);
  });
});
