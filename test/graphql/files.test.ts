import OpenAI, { toFile } from 'openai';
import { localStoredFiles, PNG_1X1 } from '../support/file-uploads';
import { startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';
import { DeleteFileDocument, FileDocument, FilesDocument } from './generated/graphql';
import { graphqlHttp } from './graphql-test-client';

describe.each(TEST_DATABASES)('files over GraphQL (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  let other: string;
  let ids: string[];

  beforeAll(async () => {
    t = await startTestGateway({ database, env: { GATEWAY_FILE_SWEEP_MS: '0' } });
    key = await t.createKey({ name: 'files' });
    other = await t.createKey({ name: 'other' });
    const client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
    ids = [];
    for (let i = 0; i < 3; i++) ids.push((await client.files.create({ purpose: 'user_data', file: await toFile(Buffer.from(`note ${i}`), `note-${i}.txt`) })).id);
    ids.push((await client.files.create({ purpose: 'vision', file: await toFile(PNG_1X1, 'pixel.png') })).id);
  });
  afterAll(() => t?.close());

  it('file(id) is the REST file, and null for another key', async () => {
    const mine = await graphqlHttp(t, key, FileDocument, { id: ids[3] });
    expect(mine.data!.file).toEqual({
      id: ids[3], filename: 'pixel.png', purpose: 'VISION', bytes: PNG_1X1.length, mimeType: 'image/png',
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/), status: 'processed', createdAt: expect.any(Number), expiresAt: expect.any(Number),
    });
    expect(mine.data!.file!.expiresAt - mine.data!.file!.createdAt).toBe(30 * 24 * 3600);
    expect((await graphqlHttp(t, other, FileDocument, { id: ids[3] })).data!.file).toBeNull();
    expect((await graphqlHttp(t, key, FileDocument, { id: 'file-nope' })).data!.file).toBeNull();
  });

  it('files pages newest first, filters by purpose, and shows nothing of another key', async () => {
    const first = await graphqlHttp(t, key, FilesDocument, { first: 2 });
    expect(first.data!.files.edges.map((e) => e.node.id)).toEqual([ids[3], ids[2]]);
    expect(first.data!.files.pageInfo.hasNextPage).toBe(true);
    const rest = await graphqlHttp(t, key, FilesDocument, { first: 10, after: first.data!.files.pageInfo.endCursor });
    expect(rest.data!.files.edges.map((e) => e.node.id)).toEqual([ids[1], ids[0]]);
    expect(rest.data!.files.pageInfo.hasNextPage).toBe(false);

    const vision = await graphqlHttp(t, key, FilesDocument, { purpose: 'VISION' });
    expect(vision.data!.files.edges.map((e) => e.node.id)).toEqual([ids[3]]);
    expect((await graphqlHttp(t, other, FilesDocument, {})).data!.files.edges).toEqual([]);

    const badCursor = await graphqlHttp(t, key, FilesDocument, { after: 'not-a-cursor' });
    expect(badCursor.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', param: 'after' });
    const badFirst = await graphqlHttp(t, key, FilesDocument, { first: 0 });
    expect(badFirst.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', param: 'first' });
  });

  it("deleteFile removes the key's file (row and bytes); another key's is file_not_found and stays", async () => {
    const refused = await graphqlHttp(t, other, DeleteFileDocument, { id: ids[0] });
    expect(refused.data).toBeNull();
    expect(refused.errors![0].extensions).toMatchObject({ code: 'file_not_found', status: 404 });
    expect((await graphqlHttp(t, key, FileDocument, { id: ids[0] })).data!.file?.id).toBe(ids[0]);

    const deleted = await graphqlHttp(t, key, DeleteFileDocument, { id: ids[0] });
    expect(deleted.data!.deleteFile).toEqual({ id: ids[0], deleted: true });
    expect((await graphqlHttp(t, key, FileDocument, { id: ids[0] })).data!.file).toBeNull();
    expect(await t.gateway.db.prisma.file.findUnique({ where: { id: ids[0] } })).toBeNull();
    expect(localStoredFiles(t.dataDir).objects).not.toContain(ids[0]);
    const rest = await fetch(`${t.baseURL}/files/${ids[0]}`, { headers: { authorization: `Bearer ${key}` } });
    expect(rest.status).toBe(404);

    const again = await graphqlHttp(t, key, DeleteFileDocument, { id: ids[0] });
    expect(again.errors![0].extensions).toMatchObject({ code: 'file_not_found' });
  });

  it('does not take a mutation over GET', async () => {
    const viaGet = await graphqlHttp(t, key, DeleteFileDocument, { id: ids[1] }, 'GET');
    expect(viaGet.status).toBe(405);
    expect((await graphqlHttp(t, key, FileDocument, { id: ids[1] })).data!.file?.id).toBe(ids[1]);
  });
});
