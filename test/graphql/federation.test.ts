import { readFileSync } from 'node:fs';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { composeServices } from '@apollo/composition';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse, type GraphQLFormattedError } from 'graphql';
import OpenAI, { toFile } from 'openai';
import { schemaFileText, SUBGRAPH_SCHEMA_FILE } from '../../src/graphql/emit-schema';
import { fastVideoConfig } from '../support/fast-video-config';
import { startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';
import { graphqlHttp } from './graphql-test-client';

/**
 * /graphql as an Apollo Federation 2 subgraph: its `_service { sdl }`
 * composes with another team's subgraph, a supergraph query crosses both,
 * and `_entities` resolves references for the calling key only.
 */

type Entity = { __typename: string; id: string } | null;

const SERVICE: TypedDocumentNode<{ _service: { sdl: string } }, Record<string, never>> = parse('query Service { _service { sdl } }');

const ENTITIES: TypedDocumentNode<{ _entities: Entity[] }, { representations: unknown[] }> = parse(`
  query Entities($representations: [_Any!]!) {
    _entities(representations: $representations) {
      __typename
      ... on UsageRecord { id model }
      ... on File { id filename }
      ... on VideoTask { id model }
      ... on Model { id ownedBy }
      ... on CatalogEntry { id family }
      ... on Credential { id name }
      ... on Budget { id limitMicrousd }
    }
  }`);

const MINT: TypedDocumentNode<{ createCredential: { id: string; key: string; budget: { id: string } } }, Record<string, never>> = parse(`
  mutation Mint { createCredential(input: { name: "federated", expiresIn: 600, budgetMicrousd: 5000000 }) { id key budget { id } } }`);

/** Another team's subgraph: the organisation's users, each holding references to the usage records of their requests. */
const USERS_SDL = parse(`
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key"])

  type Query {
    users: [User!]!
  }

  type User @key(fields: "id") {
    id: ID!
    name: String!
    usage: [UsageRecord]!
  }

  type UsageRecord @key(fields: "id", resolvable: false) {
    id: ID!
  }
`);

const SILENT = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** An Apollo Server on an ephemeral loopback port. */
async function serve(server: ApolloServer<{ authorization: string }>): Promise<string> {
  const { url } = await startStandaloneServer(server, {
    listen: { port: 0, host: '127.0.0.1' },
    context: async ({ req }) => ({ authorization: req.headers.authorization ?? '' }),
  });
  return url;
}

describe.each(TEST_DATABASES)('GraphQL federation (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  let other: string;
  let miniOnly: string;
  /** The key's usage records, and one of the other key's. */
  let mine: string[];
  let theirs: string;
  let fileId: string;
  let taskId: string;
  let credential: { id: string; key: string; budget: { id: string } };

  async function chat(as: string): Promise<string> {
    const client = new OpenAI({ apiKey: as, baseURL: t.baseURL, maxRetries: 0 });
    const { response } = await client.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Say hello' }] }).withResponse();
    return response.headers.get('x-svc-request-id')!;
  }

  beforeAll(async () => {
    t = await startTestGateway({ database, config: fastVideoConfig(), env: { GATEWAY_FILE_SWEEP_MS: '0' } });
    key = await t.createKey({ name: 'federated' });
    other = await t.createKey({ name: 'other' });
    miniOnly = await t.createKey({ name: 'mini only', models: ['gpt-4.1-mini'] });
    mine = [await chat(key), await chat(key)];
    theirs = await chat(other);
    const client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
    fileId = (await client.files.create({ purpose: 'user_data', file: await toFile(Buffer.from('notes'), 'notes.txt') })).id;
    const video = await fetch(`${t.url}/v1/videos`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sora-2', prompt: 'a subgraph [sim gen_ms=100]' }),
    });
    taskId = ((await video.json()) as { id: string }).id;
    const minted = await graphqlHttp(t, key, MINT, {});
    expect(minted.errors).toBeUndefined();
    credential = minted.data!.createCredential;
  });

  afterAll(() => t?.close());

  async function entities(as: string, representations: unknown[]): Promise<Entity[]> {
    const { data, errors } = await graphqlHttp(t, as, ENTITIES, { representations });
    expect(errors).toBeUndefined();
    return data!._entities;
  }

  it('_service { sdl } is the committed subgraph.graphql', async () => {
    const { data, errors } = await graphqlHttp(t, key, SERVICE, {});
    expect(errors).toBeUndefined();
    expect(schemaFileText(data!._service.sdl)).toBe(readFileSync(SUBGRAPH_SCHEMA_FILE, 'utf8'));
    expect(data!._service.sdl).toContain('@link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key"])');
    for (const type of ['UsageRecord', 'VideoTask', 'File', 'Model', 'CatalogEntry', 'Credential', 'Budget']) {
      expect(data!._service.sdl).toMatch(new RegExp(`type ${type}\\s+@key\\(fields: "id"\\)`));
    }
  });

  it('_entities resolves each entity for the key it belongs to, and null for any other key or a missing id', async () => {
    const representations = [
      { __typename: 'UsageRecord', id: mine[0] },
      { __typename: 'UsageRecord', id: theirs },
      { __typename: 'UsageRecord', id: 'req_missing' },
      { __typename: 'File', id: fileId },
      { __typename: 'VideoTask', id: taskId },
      { __typename: 'Model', id: 'gpt-4.1' },
      { __typename: 'CatalogEntry', id: 'gpt-4.1' },
      { __typename: 'Credential', id: credential.id },
      { __typename: 'Budget', id: credential.budget.id },
    ];
    const ids = (found: Entity[]) => found.map((entity) => entity?.id ?? null);
    expect(ids(await entities(key, representations))).toEqual([mine[0], null, null, fileId, taskId, 'gpt-4.1', 'gpt-4.1', credential.id, null]);
    expect(ids(await entities(other, representations))).toEqual([null, theirs, null, null, null, 'gpt-4.1', 'gpt-4.1', null, null]);
    // A key limited to one model sees no other; a credential sees its own budget, and mints (so lists) no credentials.
    expect(ids(await entities(miniOnly, representations))).toEqual([null, null, null, null, null, null, null, null, null]);
    expect(ids(await entities(credential.key, representations))).toEqual([null, null, null, null, null, 'gpt-4.1', 'gpt-4.1', null, credential.budget.id]);
    expect(await entities(key, [{ __typename: 'UsageRecord', id: mine[1] }])).toEqual([{ __typename: 'UsageRecord', id: mine[1], model: 'gpt-4.1-mini' }]);
  });

  it('_entities takes at most a page of references, and only entities', async () => {
    const tooMany = await graphqlHttp(t, key, ENTITIES, { representations: Array.from({ length: 101 }, () => ({ __typename: 'UsageRecord', id: mine[0] })) });
    expect(tooMany.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', param: 'representations' }) })]);
    // A type that is not an entity is never built from the caller's own representation.
    for (const representation of [{ __typename: 'UsageRecordKey', id: 'key_x', name: 'forged' }, { __typename: 'NoSuchType', id: 'x' }, { id: 'x' }]) {
      const refused = await graphqlHttp(t, key, ENTITIES, { representations: [{ __typename: 'UsageRecord', id: mine[0] }, representation] });
      expect(refused.data).toBeNull();
      expect(refused.errors).toEqual([
        expect.objectContaining({ message: expect.stringContaining('not an entity'), extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', param: 'representations' }) }),
      ]);
    }
    expect(t.errorLogs()).toEqual([]);
  });

  describe('composed with a users subgraph', () => {
    let users: ApolloServer<{ authorization: string }>;
    let supergraph: ApolloServer<{ authorization: string }>;
    let supergraphUrl: string;

    beforeAll(async () => {
      const { data } = await graphqlHttp(t, key, SERVICE, {});
      const people = [
        { id: 'u1', name: 'Ada', usage: mine.map((id) => ({ id })) },
        { id: 'u2', name: 'Grace', usage: [{ id: theirs }] },
      ];
      users = new ApolloServer({ schema: buildSubgraphSchema({ typeDefs: USERS_SDL, resolvers: { Query: { users: () => people } } }), logger: SILENT });
      const usersUrl = await serve(users);

      const composed = composeServices([
        { name: 'gateway', typeDefs: parse(data!._service.sdl), url: `${t.url}/graphql` },
        { name: 'users', typeDefs: USERS_SDL, url: usersUrl },
      ]);
      expect(composed.errors).toBeUndefined();

      const gateway = new ApolloGateway({
        supergraphSdl: composed.supergraphSdl!,
        logger: SILENT,
        // The caller's API key goes on to every subgraph: the gateway's resolves references for that key only.
        buildService: ({ url }) =>
          new RemoteGraphQLDataSource<{ authorization: string }>({
            url,
            willSendRequest: ({ request, context }) => void request.http?.headers.set('authorization', context.authorization),
          }),
      });
      supergraph = new ApolloServer({ gateway, logger: SILENT });
      supergraphUrl = await serve(supergraph);
    });

    afterAll(async () => {
      await supergraph?.stop();
      await users?.stop();
    });

    async function query(as: string): Promise<{ data?: any; errors?: GraphQLFormattedError[] }> {
      const res = await fetch(supergraphUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${as}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ users { name usage { id model billing { amountMicrousd } modelInfo { ownedBy } apiKey { name } } } }' }),
      });
      return (await res.json()) as never;
    }

    it("resolves the users' usage records through the gateway's _entities, each for its own key only", async () => {
      const asKey = await query(key);
      expect(asKey.errors).toBeUndefined();
      const [ada, grace] = asKey.data.users;
      expect(ada.name).toBe('Ada');
      expect(ada.usage).toEqual(
        mine.map((id) => ({ id, model: 'gpt-4.1-mini', billing: { amountMicrousd: expect.any(Number) }, modelInfo: { ownedBy: 'openai' }, apiKey: { name: 'federated' } })),
      );
      for (const record of ada.usage) expect(record.billing.amountMicrousd).toBeGreaterThan(0);
      // Grace's record is the other key's: through _entities it is null for this key.
      expect(grace).toEqual({ name: 'Grace', usage: [null] });

      const asOther = await query(other);
      expect(asOther.data.users[0].usage).toEqual([null, null]);
      expect(asOther.data.users[1].usage).toEqual([expect.objectContaining({ id: theirs, apiKey: { name: 'other' } })]);
    });
  });
});
