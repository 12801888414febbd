import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import OpenAI from 'openai';
import { startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';
import { UsageRecordDashboardDocument } from './generated/graphql';
import { graphqlHttp } from './graphql-test-client';

/**
 * The SQL statements one GraphQL operation runs, read from the running
 * gateway's statement count (`db.statements`) before and after it: a page of
 * usage records with their catalog model and key is a fixed number of
 * statements, the same for 10 records as for 100 (no statement per record).
 */

/** Background work that would run statements of its own while an operation is counted: off. The key stays cached. */
const QUIET = { GATEWAY_VIDEO_POLLER: 'false', GATEWAY_FILE_SWEEP_MS: '0', GATEWAY_CATALOG_POLL_MS: '0', GATEWAY_KEY_CACHE_MS: '600000' };

/** More records than the largest page. */
const RECORDS = 110;

const ENTITIES: TypedDocumentNode<{ _entities: Array<{ id: string; model: string; apiKey: { name: string } } | null> }, { representations: unknown[] }> = parse(`
  query Entities($representations: [_Any!]!) {
    _entities(representations: $representations) { ... on UsageRecord { id model modelInfo { id } apiKey { id name } billing { amountMicrousd } } }
  }`);

describe.each(TEST_DATABASES)('SQL statements per GraphQL operation (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  let ids: string[];

  beforeAll(async () => {
    t = await startTestGateway({ database, env: QUIET });
    key = await t.createKey({ name: 'dashboard' });
    const client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
    const chat = () => client.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Say hello' }] });
    // Ten at a time: real records, through the chat service and the usage writer.
    for (let made = 0; made < RECORDS; made += 10) await Promise.all(Array.from({ length: Math.min(10, RECORDS - made) }, chat));
    await t.gateway.services.writer.flush();
    const { data } = await graphqlHttp(t, key, UsageRecordDashboardDocument, { first: 100 });
    ids = data!.usageRecords.edges.map((e) => e.node.id);
    expect(ids).toHaveLength(100);
  }, 120_000);

  afterAll(() => t?.close());

  /** The statements the gateway ran while it answered `run` (nothing else runs meanwhile). */
  async function statementsOf(run: () => Promise<void>): Promise<number> {
    const before = t.gateway.db.statements.value;
    await run();
    return t.gateway.db.statements.value - before;
  }

  function dashboardPage(first: number): Promise<number> {
    return statementsOf(async () => {
      const { data, errors } = await graphqlHttp(t, key, UsageRecordDashboardDocument, { first });
      expect(errors).toBeUndefined();
      const nodes = data!.usageRecords.edges.map((e) => e.node);
      expect(nodes).toHaveLength(first);
      for (const node of nodes) expect(node).toMatchObject({ modelInfo: { id: 'gpt-4.1-mini' }, apiKey: { name: 'dashboard' }, billing: { amountMicrousd: expect.any(Number) } });
    });
  }

  it('a page of records with their model and key takes the same few statements for 10 records as for 100', async () => {
    const ten = await dashboardPage(10);
    const hundred = await dashboardPage(100);
    // The page, and the keys of all its records: 2 on both databases when this was written (a statement per record made it 11 and 101).
    expect(ten).toBeGreaterThan(0);
    expect(hundred).toBeLessThanOrEqual(3);
    expect(hundred).toBe(ten);
  });

  it('_entities resolves 10 or 100 references in the same few statements', async () => {
    const resolve = (count: number) =>
      statementsOf(async () => {
        const representations = ids.slice(0, count).map((id) => ({ __typename: 'UsageRecord', id }));
        const { data, errors } = await graphqlHttp(t, key, ENTITIES, { representations });
        expect(errors).toBeUndefined();
        expect(data!._entities.map((e) => e?.id)).toEqual(ids.slice(0, count));
      });
    const ten = await resolve(10);
    const hundred = await resolve(100);
    // The references' records, and their keys.
    expect(ten).toBeGreaterThan(0);
    expect(hundred).toBeLessThanOrEqual(3);
    expect(hundred).toBe(ten);
  });
});
