import { ADMIN_TOKEN, fetchUsageRecord, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';
import {
  CatalogDocument,
  ModelsDocument,
  UsageRecordDashboardDocument,
  UsageRecordDocument,
  UsageRecordsDocument,
  type UsageRecordsQuery,
  type UsageRecordsQueryVariables,
} from './generated/graphql';
import { graphqlHttp, type HttpResult } from './graphql-test-client';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(TEST_DATABASES)('GraphQL queries (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  let otherKey: string;
  let miniOnlyKey: string;
  /** The key's chat requests, oldest first: mini, 4.1, mini | between | 4.1, mini. */
  const requestIds: string[] = [];
  let between: Date;

  /** A request as `as` (the reader key unless told), answered with `status`; its request id. */
  async function call(path: string, body: Record<string, unknown>, as = key, status = 200): Promise<string> {
    const res = await fetch(`${t.baseURL}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${as}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(status);
    await res.json();
    return res.headers.get('x-svc-request-id')!;
  }

  function chat(model: string, as = key, status = 200): Promise<string> {
    return call('/chat/completions', { model, messages: [{ role: 'user', content: 'Say hello' }] }, as, status);
  }

  async function rest(path: string, as: string): Promise<any> {
    const res = await fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${as}` } });
    expect(res.status).toBe(200);
    return res.json();
  }

  beforeAll(async () => {
    t = await startTestGateway({ database });
    key = await t.createKey({ name: 'reader' });
    otherKey = await t.createKey({ name: 'other' });
    miniOnlyKey = await t.createKey({ name: 'mini only', models: ['gpt-4.1-mini'] });
    for (const model of ['gpt-4.1-mini', 'gpt-4.1', 'gpt-4.1-mini']) requestIds.push(await chat(model));
    await sleep(10);
    between = new Date();
    await sleep(10);
    for (const model of ['gpt-4.1', 'gpt-4.1-mini']) requestIds.push(await chat(model));
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('models and catalog', () => {
    it('models lists what GET /v1/models lists for the key, policies included', async () => {
      for (const as of [key, miniOnlyKey]) {
        const { data } = await graphqlHttp(t, as, ModelsDocument);
        const listed = (await rest('/v1/models', as)).data as Array<{ id: string; owned_by: string; created: number }>;
        expect(data!.models.map((m) => ({ id: m.id, ownedBy: m.ownedBy }))).toEqual(listed.map((m) => ({ id: m.id, ownedBy: m.owned_by })));
        for (const model of data!.models) expect(Math.abs(model.created - listed[0].created)).toBeLessThanOrEqual(1);
      }
      const { data: mini } = await graphqlHttp(t, miniOnlyKey, ModelsDocument);
      expect(mini!.models.map((m) => m.id)).toEqual(['gpt-4.1-mini']);
    });

    it('catalog gives the entries of GET /api/models/catalog', async () => {
      const { data, errors } = await graphqlHttp(t, key, CatalogDocument);
      expect(errors).toBeUndefined();
      const entries = (await rest('/api/models/catalog', key)).data as any[];
      expect(data!.catalog).toEqual(
        entries.map((e) => ({
          id: e.id,
          ownedBy: e.owned_by,
          family: e.family,
          supportedEndpointTypes: e.supported_endpoint_types,
          supportedEndpoints: e.supported_endpoints,
          parameters: { tools: e.parameters.tools, toolChoice: e.parameters.tool_choice, responseFormat: e.parameters.response_format, streaming: e.parameters.streaming },
          contextWindow: e.context_window,
          maxInputTokens: e.max_input_tokens,
          maxOutputTokens: e.max_output_tokens,
          modalities: e.modalities,
          embedding: e.embedding && { dimensions: e.embedding.dimensions, maxInputs: e.embedding.max_inputs },
          cache: { promptCaching: e.cache.prompt_caching },
          routing: e.routing,
          pricing: e.pricing,
        })),
      );
      const mini = data!.catalog.find((e) => e.id === 'gpt-4.1-mini')!;
      expect(mini.pricing.lanes).toEqual({ standard: expect.objectContaining({ input: { usd: '0.40', per: 1_000_000, unit_microusd: 0.4 } }) });
    });

    it('catalog filters by endpoint type and by what the key may use', async () => {
      const { data: embeddings } = await graphqlHttp(t, key, CatalogDocument, { endpointType: 'embeddings' });
      expect(embeddings!.catalog.map((e) => [e.id, e.embedding?.dimensions])).toEqual([
        ['text-embedding-3-small', 1536],
        ['text-embedding-3-large', 3072],
        ['gemini-embedding-001', 3072],
        ['text-embedding-004', 768],
        ['voyage-3.5', 1024],
      ]);
      const { data: mini } = await graphqlHttp(t, miniOnlyKey, CatalogDocument, { endpointType: 'chat' });
      expect(mini!.catalog.map((e) => e.id)).toEqual(['gpt-4.1-mini']);
      const { data: none } = await graphqlHttp(t, miniOnlyKey, CatalogDocument, { endpointType: 'embeddings' });
      expect(none!.catalog).toEqual([]);
    });

    it('answers GET requests too', async () => {
      const res = await graphqlHttp(t, key, ModelsDocument, undefined, 'GET');
      expect(res.status).toBe(200);
      expect(res.data!.models.length).toBeGreaterThan(0);
    });
  });

  describe('usage records', () => {
    it('usageRecord is the record of GET /api/usage/requests/{id}', async () => {
      const id = requestIds[0];
      const { data, errors } = await graphqlHttp(t, key, UsageRecordDocument, { id });
      expect(errors).toBeUndefined();
      const { status, body } = await fetchUsageRecord(t, key, id);
      expect(status).toBe(200);
      expect(data!.usageRecord).toEqual({
        id: body.id,
        createdAt: body.created_at,
        model: 'gpt-4.1-mini',
        endpoint: '/v1/chat/completions',
        usage: {
          promptTokens: body.usage.prompt_tokens,
          completionTokens: body.usage.completion_tokens,
          totalTokens: body.usage.total_tokens,
          measurement: body.usage.measurement,
          dimensions: body.usage.dimensions,
        },
        billing: {
          currency: 'USD',
          amountMicrousd: body.billing.amount_microusd,
          pricingVersion: body.billing.pricing_version,
          state: 'final',
          heldMicrousd: null,
          settledAt: null,
          lineItems: body.billing.line_items.map((item: any) => ({
            dimension: item.dimension,
            quantity: item.quantity,
            unitMicrousd: item.unit_microusd,
            amountMicrousd: item.amount_microusd,
          })),
        },
        routing: {
          statusCode: 200,
          totalDurationMs: body.routing.total_duration_ms,
          ttftMs: body.routing.ttft_ms,
          wasStreaming: false,
        },
        providerUsage: { family: body.provider_usage.family, rawFields: body.provider_usage.raw_fields },
        logId: body.log_id,
      });
      expect(data!.usageRecord!.billing.amountMicrousd).toBeGreaterThan(0);
    });

    it('usageRecords pages through the key\'s records, newest first', async () => {
      const pageAfter = (after: string | null) => graphqlHttp(t, key, UsageRecordsDocument, { first: 2, after });
      const pages: Array<{ ids: string[]; hasNextPage: boolean }> = [];
      let after: string | null = null;
      do {
        const { data, errors } = await pageAfter(after);
        expect(errors).toBeUndefined();
        const { edges, pageInfo } = data!.usageRecords;
        expect(edges[edges.length - 1].cursor).toBe(pageInfo.endCursor);
        pages.push({ ids: edges.map((e) => e.node.id), hasNextPage: pageInfo.hasNextPage });
        after = pageInfo.hasNextPage ? pageInfo.endCursor : null;
      } while (after);
      expect(pages.map((p) => p.ids.length)).toEqual([2, 2, 1]);
      expect(pages.map((p) => p.hasNextPage)).toEqual([true, true, false]);
      expect(pages.flatMap((p) => p.ids)).toEqual([...requestIds].reverse());
    });

    it('usageRecords filters by model, since and until', async () => {
      const ids = async (variables: UsageRecordsQueryVariables) => {
        const { data, errors } = await graphqlHttp(t, key, UsageRecordsDocument, variables);
        expect(errors).toBeUndefined();
        return data!.usageRecords.edges.map((e) => e.node.id).sort();
      };
      const [mini1, full1, mini2, full2, mini3] = requestIds;
      expect(await ids({ model: 'gpt-4.1' })).toEqual([full1, full2].sort());
      expect(await ids({ since: between.toISOString() })).toEqual([full2, mini3].sort());
      expect(await ids({ until: between.toISOString() })).toEqual([mini1, full1, mini2].sort());
      expect(await ids({ model: 'gpt-4.1-mini', since: between.toISOString() })).toEqual([mini3]);
      expect(await ids({ model: 'no-such-model' })).toEqual([]);
    });

    it('refuses a page size out of 1..100 and a cursor it never gave, naming the argument', async () => {
      for (const [variables, param] of [
        [{ first: 0 }, 'first'],
        [{ first: 101 }, 'first'],
        [{ after: 'not-a-cursor' }, 'after'],
      ] as const) {
        const res = await graphqlHttp(t, key, UsageRecordsDocument, variables);
        expect(res.data).toBeNull();
        expect(res.errors).toEqual([
          expect.objectContaining({
            message: expect.stringContaining(`"${param}"`),
            extensions: { code: 'BAD_USER_INPUT', param, request_id: res.requestId },
          }),
        ]);
      }
    });

    it('usageRecords filters by endpoint and by status, and pages through the filtered records', async () => {
      const filtered = await t.createKey({ name: 'filtered' });
      const ok1 = await chat('gpt-4.1-mini', filtered);
      const refused = await chat('no-such-model', filtered, 404);
      const embedded = await call('/embeddings', { model: 'text-embedding-3-small', input: 'hello' }, filtered);
      const ok2 = await chat('gpt-4.1', filtered);
      const failedEmbedding = await call('/embeddings', { model: 'no-such-model', input: 'hello' }, filtered, 404);
      const ids = async (variables: UsageRecordsQueryVariables) => {
        const { data, errors } = await graphqlHttp(t, filtered, UsageRecordsDocument, variables);
        expect(errors).toBeUndefined();
        return data!.usageRecords.edges.map((e) => e.node.id);
      };
      expect(await ids({ endpoint: '/v1/chat/completions' })).toEqual([ok2, refused, ok1]);
      expect(await ids({ endpoint: '/v1/embeddings' })).toEqual([failedEmbedding, embedded]);
      expect(await ids({ endpoint: '/v1/chat' })).toEqual([]);
      expect(await ids({ status: 'SUCCEEDED' })).toEqual([ok2, embedded, ok1]);
      expect(await ids({ status: 'FAILED' })).toEqual([failedEmbedding, refused]);
      expect(await ids({ status: 'FAILED', endpoint: '/v1/chat/completions' })).toEqual([refused]);
      expect(await ids({ status: 'SUCCEEDED', model: 'gpt-4.1' })).toEqual([ok2]);

      // One record a page: each cursor continues the filtered walk where it left off.
      const walked: string[] = [];
      let after: string | null = null;
      do {
        const page: HttpResult<UsageRecordsQuery> = await graphqlHttp(t, filtered, UsageRecordsDocument, { first: 1, after, status: 'SUCCEEDED' });
        const { edges, pageInfo } = page.data!.usageRecords;
        walked.push(...edges.map((e) => e.node.id));
        after = pageInfo.hasNextPage ? pageInfo.endCursor : null;
      } while (after);
      expect(walked).toEqual([ok2, embedded, ok1]);
    });

    it('each record shows its catalog model and the key that made it, never the secret', async () => {
      const keys = (await (await fetch(`${t.url}/api/admin/keys`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as { data: Array<{ id: string; name: string; key_prefix: string }> };
      const reader = keys.data.find((k) => k.name === 'reader')!;
      const { data, errors } = await graphqlHttp(t, key, UsageRecordDashboardDocument, { first: 100 });
      expect(errors).toBeUndefined();
      const nodes = data!.usageRecords.edges.map((e) => e.node);
      expect(nodes.map((n) => n.id)).toEqual([...requestIds].reverse());
      for (const node of nodes) {
        expect(node.modelInfo).toEqual({ id: node.model, ownedBy: 'openai' });
        expect(node.apiKey).toEqual({ id: reader.id, name: 'reader', keyPrefix: reader.key_prefix, parentKeyId: null });
        expect(key.startsWith(node.apiKey.keyPrefix) && node.apiKey.keyPrefix.length < key.length).toBe(true);
      }

      // A model the catalog does not serve, or one the key may not use, has no model info.
      await chat('no-such-model', miniOnlyKey, 404);
      await chat('gpt-4.1', miniOnlyKey, 403);
      await chat('gpt-4.1-mini', miniOnlyKey);
      const { data: mini } = await graphqlHttp(t, miniOnlyKey, UsageRecordDashboardDocument, {});
      expect(mini!.usageRecords.edges.map((e) => [e.node.model, e.node.modelInfo?.id ?? null])).toEqual([
        ['gpt-4.1-mini', 'gpt-4.1-mini'],
        ['gpt-4.1', null],
        ['no-such-model', null],
      ]);
    });

    it('a temporary credential\'s records show the credential, and name the key that minted it', async () => {
      const res = await fetch(`${t.url}/api/credentials`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'dashboard', expires_in: 600 }),
      });
      expect(res.status).toBe(201);
      const credential = (await res.json()) as { id: string; key: string; key_prefix: string; parent_key_id: string };
      const id = await chat('gpt-4.1-mini', credential.key);
      const { data } = await graphqlHttp(t, credential.key, UsageRecordDashboardDocument, {});
      expect(data!.usageRecords.edges.map((e) => e.node)).toEqual([
        expect.objectContaining({ id, apiKey: { id: credential.id, name: 'dashboard', keyPrefix: credential.key_prefix, parentKeyId: credential.parent_key_id } }),
      ]);
      // The parent key's own records are its own.
      const { data: parent } = await graphqlHttp(t, key, UsageRecordDashboardDocument, {});
      expect(parent!.usageRecords.edges.map((e) => e.node.id)).not.toContain(id);
    });

    it('shows another key\'s records to nobody else: null and an empty page', async () => {
      const { data: record } = await graphqlHttp(t, otherKey, UsageRecordDocument, { id: requestIds[0] });
      expect(record!.usageRecord).toBeNull();
      const { data: page } = await graphqlHttp(t, otherKey, UsageRecordsDocument, {});
      expect(page!.usageRecords).toEqual({ edges: [], pageInfo: { endCursor: null, hasNextPage: false } });
      const { data: missing } = await graphqlHttp(t, key, UsageRecordDocument, { id: 'req_does_not_exist' });
      expect(missing!.usageRecord).toBeNull();
    });
  });
});
