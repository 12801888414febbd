import { ADMIN_TOKEN, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';
import { ModelsDocument, UsageRecordDocument } from './generated/graphql';
import { graphqlHttp, runOverWs, wsClient } from './graphql-test-client';

describe.each(TEST_DATABASES)('GraphQL authentication and errors (%s)', (database) => {
  let t: TestGateway;
  let key: string;

  beforeAll(async () => {
    t = await startTestGateway({ database });
    key = await t.createKey({ name: 'graphql' });
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('over HTTP', () => {
    it.each([
      ['no key', undefined, 'No API key given'],
      ['an unknown key', 'sk-gw-not-a-real-key', 'not valid'],
    ])('refuses %s with 401 UNAUTHENTICATED and the request id', async (_case, badKey, explanation) => {
      for (const method of ['POST', 'GET'] as const) {
        const res = await graphqlHttp(t, badKey, ModelsDocument, undefined, method);
        expect(res.status).toBe(401);
        expect(res.requestId).toMatch(/^req_[0-9a-f]{32}$/);
        expect(res.data).toBeUndefined();
        expect(res.errors).toEqual([
          { message: expect.stringContaining(explanation), extensions: { code: 'UNAUTHENTICATED', status: 401, request_id: res.requestId } },
        ]);
      }
    });

    it('says only "internal error" and the request id when a resolver fails unexpectedly', async () => {
      const usage = t.gateway.services.usage;
      const byIds = usage.byIds;
      usage.byIds = async () => {
        throw new Error('connection string postgres://secret@db leaked');
      };
      try {
        const res = await graphqlHttp(t, key, UsageRecordDocument, { id: 'req_x' });
        expect(res.status).toBe(200);
        expect(res.data).toEqual({ usageRecord: null });
        expect(res.errors).toEqual([
          { message: 'internal error', locations: expect.any(Array), path: ['usageRecord'], extensions: { code: 'INTERNAL_SERVER_ERROR', request_id: res.requestId } },
        ]);
        expect(JSON.stringify(res)).not.toMatch(/secret|stack/i);
      } finally {
        usage.byIds = byIds;
      }
    });

    it('reports a malformed query as GraphQL does, with the request id', async () => {
      const res = await fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ models { nope } }' }),
      });
      const body = (await res.json()) as { errors: Array<{ message: string; extensions: Record<string, unknown> }> };
      expect(res.status).toBe(400);
      expect(body.errors[0].message).toContain('nope');
      expect(body.errors[0].extensions).toEqual({ code: 'GRAPHQL_VALIDATION_FAILED', request_id: res.headers.get('x-svc-request-id') });
    });
  });

  describe('over graphql-ws', () => {
    it.each([
      ['no connection params', {}],
      ['an unknown key', { authorization: 'Bearer sk-gw-not-a-real-key' }],
      ['a key that is not a bearer header', { authorization: key }],
    ])('closes a connection with %s as 4401 Unauthorized', async (_case, params) => {
      const client = wsClient(t, params);
      try {
        const outcome = await runOverWs(client, ModelsDocument, {});
        expect(outcome.results).toEqual([]);
        expect(outcome.failure).toMatchObject({ code: 4401, reason: 'Unauthorized' });
      } finally {
        await client.dispose();
      }
    });

    it.each([
      ['authorization', (k: string) => ({ authorization: `Bearer ${k}` })],
      ['Authorization', (k: string) => ({ Authorization: `Bearer ${k}` })],
      ['apiKey', (k: string) => ({ apiKey: k })],
    ])('accepts the key as %s and runs queries too', async (_case, params) => {
      const client = wsClient(t, params(key));
      try {
        const outcome = await runOverWs(client, ModelsDocument, {});
        expect(outcome.failure).toBeUndefined();
        expect(outcome.results).toHaveLength(1);
        expect(outcome.results[0].data!.models.map((m) => m.id)).toContain('gpt-4.1-mini');
      } finally {
        await client.dispose();
      }
    });

    it('stops serving an open connection once its key is revoked, as HTTP does', async () => {
      const created = await fetch(`${t.url}/api/admin/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'to revoke' }),
      });
      const { key: doomed, id } = (await created.json()) as { key: string; id: string };
      // Kept open between operations, so the second one runs on the connection the key opened.
      let connections = 0;
      const client = wsClient(t, { authorization: `Bearer ${doomed}` }, { lazy: false, on: { connected: () => void connections++ } });
      try {
        expect((await runOverWs(client, ModelsDocument, {})).results[0].data!.models.length).toBeGreaterThan(0);
        const revoked = await fetch(`${t.url}/api/admin/keys/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
        expect(revoked.status).toBe(200);

        const outcome = await runOverWs(client, ModelsDocument, {});
        expect(outcome.results).toEqual([]);
        expect(outcome.failure).toEqual([
          { message: expect.stringContaining('not valid'), extensions: { code: 'UNAUTHENTICATED', status: 401, request_id: expect.stringMatching(/^req_/) } },
        ]);
        expect(connections).toBe(1);
        expect((await graphqlHttp(t, doomed, ModelsDocument)).status).toBe(401);
      } finally {
        await client.dispose();
      }
    });
  });
});
