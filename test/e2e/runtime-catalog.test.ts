import { writeFileSync } from 'node:fs';
import OpenAI from 'openai';
import type { GatewayConfigInput } from '../../src/config/gateway-config-schema';
import { eventually } from '../support/eventually';
import { writeConfigFile } from '../support/gateway-process';
import { ADMIN_TOKEN, fetchUsageRecord, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';
import { instancesOnOneDatabase } from '../support/instances-on-one-database';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const chatModel = (id: string, input: string, provider = 'sim') => ({
  id, owned_by: 'test', family: 'openai', endpoint_types: ['chat' as const], context_window: 128_000, max_output_tokens: 4096,
  pricing: { input, output: '8.00' }, routes: [{ provider, upstream_model: 'gpt-4.1-mini' }],
});

function catalogDocument(models: ReturnType<typeof chatModel>[], extra: Partial<GatewayConfigInput> = {}): GatewayConfigInput {
  return {
    providers: { sim: { type: 'openai', simulator: true }, spare: { type: 'openai', simulator: true } },
    models,
    routes: [{ name: 'any', models: models.map((m) => m.id) }],
    ...extra,
  };
}

const admin = (url: string, path: string, method: string, body?: unknown) =>
  fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function listedModels(url: string, key: string): Promise<string[]> {
  const res = await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
  return ((await res.json()) as { data: { id: string }[] }).data.map((m) => m.id);
}

async function catalogOf(url: string, key: string): Promise<{ pricing_version: number; catalog_revision: number; data: any[] }> {
  return (await (await fetch(`${url}/api/models/catalog`, { headers: { authorization: `Bearer ${key}` } })).json()) as never;
}

/**
 * The catalog changes at runtime: a saved catalog file, or the admin API,
 * and every instance serves the change, with new prices under a new
 * pricing version; a bad edit changes nothing.
 */
describe.each(TEST_DATABASES)('runtime catalog edits (%s)', (database) => {
  let t: TestGateway;
  let file: string;
  let key: string;
  let client: OpenAI;

  beforeAll(async () => {
    file = writeConfigFile(catalogDocument([chatModel('alpha', '1.00')]));
    t = await startTestGateway({ database, env: { GATEWAY_CONFIG: file } });
    key = await t.createKey({ name: 'catalog' });
    client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
  });
  afterAll(() => t?.close());

  const ask = (model: string) => client.chat.completions.create({ model, messages: [{ role: 'user', content: 'price check' }], max_tokens: 20 }).withResponse();

  it('a saved file edit changes prices (with a new pricing_version), adds a model and keeps old records as they were billed', async () => {
    const before = await catalogOf(t.url, key);
    const first = await ask('alpha');
    const firstId = first.response.headers.get('x-svc-request-id')!;

    writeFileSync(file, JSON.stringify(catalogDocument([chatModel('alpha', '3.00'), chatModel('beta', '0.50')])));
    await eventually(async () => ((await listedModels(t.url, key)).includes('beta') ? true : undefined), 'the edited file to be served', 10_000, 100);

    const after = await catalogOf(t.url, key);
    expect(after.catalog_revision).toBe(before.catalog_revision + 1);
    expect(after.pricing_version).toBeGreaterThan(before.pricing_version);
    expect(after.data.find((m) => m.id === 'alpha').pricing.lanes.standard.input.usd).toBe('3.00');

    const second = await ask('alpha');
    const secondId = second.response.headers.get('x-svc-request-id')!;
    const [old, fresh] = await eventually(async () => {
      const records = await Promise.all([fetchUsageRecord(t, key, firstId), fetchUsageRecord(t, key, secondId)]);
      return records.every((r) => r.status === 200) ? records.map((r) => r.body) : undefined;
    }, 'both usage records');
    expect(old.billing.pricing_version).toBe(before.pricing_version);
    expect(fresh.billing.pricing_version).toBe(after.pricing_version);
    const inputItem = (record: any) => record.billing.line_items.find((item: any) => item.dimension === 'input');
    expect(inputItem(fresh).unit_microusd).toBe(3);
    expect(inputItem(old).unit_microusd).toBe(1);
  });

  it('a file edit that does not validate is refused: the catalog in force stays', async () => {
    const before = await catalogOf(t.url, key);
    const refusals = () => t.errorLogs().filter((line) => line.includes('catalog file edit refused'));
    const refusedBefore = refusals().length;
    writeFileSync(file, JSON.stringify(catalogDocument([chatModel('gamma', '1.00', 'nowhere')])));
    // The watcher read the file and refused it: only then does "nothing changed" say anything.
    const [refused] = await eventually(async () => (refusals().length > refusedBefore ? refusals().slice(refusedBefore) : undefined), 'the watcher to refuse the edited file', 10_000, 50);
    expect(refused).toContain('nowhere');
    const after = await catalogOf(t.url, key);
    expect(after.catalog_revision).toBe(before.catalog_revision);
    expect(await listedModels(t.url, key)).toEqual(expect.arrayContaining(['alpha', 'beta']));
    expect(await listedModels(t.url, key)).not.toContain('gamma');
  });

  it('a disabled model disappears from /v1/models and the catalog and answers 404 model_not_found; enabling it brings it back', async () => {
    const off = await admin(t.url, '/api/admin/catalog/models/beta', 'PATCH', { enabled: false });
    expect(off.status).toBe(200);
    expect(((await off.json()) as any).models).toContainEqual({ id: 'beta', enabled: false });
    expect(await listedModels(t.url, key)).not.toContain('beta');
    expect((await catalogOf(t.url, key)).data.map((m) => m.id)).not.toContain('beta');
    const refused = await ask('beta').catch((err: unknown) => err as InstanceType<typeof OpenAI.APIError>);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect({ status: (refused as any).status, code: (refused as any).code }).toEqual({ status: 404, code: 'model_not_found' });

    expect((await admin(t.url, '/api/admin/catalog/models/beta', 'PATCH', { enabled: true })).status).toBe(200);
    expect(await listedModels(t.url, key)).toContain('beta');
  });

  it('a disabled provider channel takes its models with it', async () => {
    expect((await admin(t.url, '/api/admin/catalog/providers/sim', 'PATCH', { enabled: false })).status).toBe(200);
    expect(await listedModels(t.url, key)).toEqual([]);
    expect((await admin(t.url, '/api/admin/catalog/providers/sim', 'PATCH', { enabled: true })).status).toBe(200);
    expect(await listedModels(t.url, key)).toEqual(expect.arrayContaining(['alpha', 'beta', 'any']));
  });

  it('refuses bad admin edits with the field named, and changes nothing', async () => {
    const before = await catalogOf(t.url, key);
    const bad = await admin(t.url, '/api/admin/catalog', 'PUT', catalogDocument([chatModel('alpha', 'free')]));
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as any;
    expect(body.error.code).toBe('invalid_catalog');
    expect(body.error.message).toContain('models.0.pricing.input');
    expect((await admin(t.url, '/api/admin/catalog/models/nope', 'PATCH', { enabled: false })).status).toBe(404);
    const noProvider = await admin(t.url, '/api/admin/catalog/providers/nope', 'PATCH', { enabled: false });
    expect({ status: noProvider.status, code: ((await noProvider.json()) as any).error.code }).toEqual({ status: 404, code: 'provider_not_found' });
    const badFlag = await admin(t.url, '/api/admin/catalog/models/alpha', 'PATCH', { enabled: 'yes' });
    expect({ status: badFlag.status, param: ((await badFlag.json()) as any).error.param }).toEqual({ status: 400, param: 'enabled' });
    expect((await fetch(`${t.url}/api/admin/catalog`, { method: 'PUT', body: '{}' })).status).toBe(401);
    expect((await catalogOf(t.url, key)).catalog_revision).toBe(before.catalog_revision);
  });

  it('a whole document through PUT replaces the catalog', async () => {
    const res = await admin(t.url, '/api/admin/catalog', 'PUT', catalogDocument([chatModel('delta', '2.00')]));
    expect(res.status).toBe(200);
    expect(await listedModels(t.url, key)).toEqual(['delta', 'any']);
    const current = (await (await admin(t.url, '/api/admin/catalog', 'GET')).json()) as any;
    expect(current.document.models.map((m: any) => m.id)).toEqual(['delta']);
    expect(current.source).toBe('admin');
  });
});

describe('runtime catalog across instances (PostgreSQL + Redis)', () => {
  const instances = instancesOnOneDatabase();

  it('an edit made on instance A is served by instance B within seconds', async () => {
    const document = catalogDocument([chatModel('alpha', '1.00'), chatModel('beta', '1.00')]);
    const fileA = writeConfigFile(document);
    const common = { REDIS_URL, GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, GATEWAY_CATALOG_POLL_MS: '500' };
    const a = await instances.spawn({ ...common, GATEWAY_CONFIG: fileA });
    let b = await instances.spawn({ ...common, GATEWAY_CONFIG: writeConfigFile(document) });
    const keyRes = await admin(a.url, '/api/admin/keys', 'POST', { name: 'two' });
    const key = ((await keyRes.json()) as { key: string }).key;
    expect(await listedModels(b.url, key)).toEqual(expect.arrayContaining(['alpha', 'beta']));

    // Through the admin API on A.
    expect((await admin(a.url, '/api/admin/catalog/models/beta', 'PATCH', { enabled: false })).status).toBe(200);
    const started = Date.now();
    await eventually(async () => ((await listedModels(b.url, key)).includes('beta') ? undefined : true), () => `B to drop beta:\n${b.output()}`, 5000, 100);
    expect(Date.now() - started).toBeLessThan(5000);

    // Through A's catalog file: a new price and a new model reach B, under a new pricing version.
    const versionBefore = (await catalogOf(b.url, key)).pricing_version;
    writeFileSync(fileA, JSON.stringify(catalogDocument([chatModel('alpha', '4.00'), chatModel('gamma', '1.00')])));
    await eventually(async () => ((await listedModels(b.url, key)).includes('gamma') ? true : undefined), () => `B to serve gamma:\n${a.output()}`, 8000, 100);
    const onB = await catalogOf(b.url, key);
    expect(onB.pricing_version).toBeGreaterThan(versionBefore);
    expect(onB.data.find((m) => m.id === 'alpha').pricing.lanes.standard.input.usd).toBe('4.00');
    expect(onB.catalog_revision).toBe((await catalogOf(a.url, key)).catalog_revision);

    // A restart of B with its old file does not undo the edits: that document was stored before.
    await instances.stop(b);
    b = await instances.spawn({ ...common, GATEWAY_CONFIG: writeConfigFile(document) });
    expect(await listedModels(b.url, key)).toContain('gamma');
  });
});
