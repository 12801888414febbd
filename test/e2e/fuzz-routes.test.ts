import fc from 'fast-check';
import { answerProblem, probe, probeRequest } from '../support/fuzz-probes';
import { ADMIN_TOKEN, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

/**
 * Property-based fuzzing over every route (test/support/fuzz-probes.ts):
 * whatever arrives, the gateway answers below 500 (except the documented
 * 503s) and every refusal carries its request id, in the body and in
 * X-Svc-Request-Id alike. `npm run drills` sends ten times as many.
 * The routes parse and refuse the same way on either database, so this runs
 * on the first of TEST_DATABASES only (PGlite unless narrowed).
 */
describe.each(TEST_DATABASES.slice(0, 1))('fuzzing every route (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  beforeAll(async () => {
    t = await startTestGateway({ database, env: { GATEWAY_SHUTDOWN_GRACE_MS: '5000', GATEWAY_DECISIONS_ENABLED: 'true', GATEWAY_DECISIONS_QUESTION_GENERATION: 'true' } });
    key = await t.createKey({ name: 'fuzz' });
  });
  afterAll(async () => {
    const started = Date.now();
    await t?.close();
    // Shutting down after a thousand odd requests has taken over 30 s on a loaded machine: room for it, and a word when it happens.
    if (Date.now() - started > 10_000) console.warn(`the gateway took ${Date.now() - started} ms to shut down after fuzzing`);
  }, 120_000);

  it('answers no 5xx but the documented 503s, and every refusal names its request id', async () => {
    await fc.assert(
      fc.asyncProperty(probe, async (p) => {
        const { url, init } = probeRequest(p, t.url, { key, adminToken: ADMIN_TOKEN });
        const res = await fetch(url, init);
        const problem = answerProblem(p, res.status, res.headers.get('x-svc-request-id'), await res.text());
        expect(problem).toBeUndefined();
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 1000), seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined },
    );
  }, 240_000);
});
