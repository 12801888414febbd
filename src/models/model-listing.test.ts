import { PriceTable } from '../billing/price-table';
import { Catalog } from '../catalog/catalog';
import { gatewayConfigSchema } from '../config/gateway-config-schema';
import type { Principal } from '../keys/principal';
import { resolveProviders } from '../providers/resolved-provider';
import { findCatalogEntry, findModel, listCatalog, listModels } from './model-listing';

const chat = (id: string) => ({
  id, owned_by: 'acme', family: 'openai', endpoint_types: ['chat' as const], context_window: 8000, pricing: { input: '1', output: '2' },
  routes: [{ provider: 'primary', upstream_model: `${id}-2025` }],
});

const config = gatewayConfigSchema.parse({
  providers: { primary: { type: 'openai', base_url: 'https://primary.example/v1/', api_key_env: 'PRIMARY_KEY' } },
  models: [
    chat('alpha'),
    chat('beta'),
    {
      id: 'embed', owned_by: 'acme', family: 'openai-embedding', endpoint_types: ['embeddings'], context_window: 8191,
      embedding: { dimensions: 8 }, pricing: { input: '0.02' }, routes: [{ provider: 'primary', upstream_model: 'text-embedding-3-small' }],
    },
  ],
  routes: [{ name: 'fast', models: ['beta', 'alpha'] }, { name: 'vectors', models: ['embed'] }],
});

const catalog = new Catalog({
  config,
  providers: resolveProviders(config, { PRIMARY_KEY: 'sk-primary' }, 'http://127.0.0.1:8090'),
  pricing: { prices: new PriceTable(config.models), version: 7 },
  searchBackends: [],
  mcpServers: [],
  decisions: { enabled: true, questionGeneration: false, generatorModel: undefined },
  revision: 3,
  loadedAt: 1_700_000_000,
});

const key = (allowed: string[] | null): Principal => ({
  keyId: 'key_1', accountId: 'acc_1', projectId: null, memberId: null, keyName: 'test',
  allowedModels: allowed ? new Set(allowed) : null, expiresAt: null, parentKeyId: null, allowedDomains: null, mcpTools: [], spendControlled: false,
});

describe('what a key may see of the catalog', () => {
  it('lists the models first, then the route policies, each in catalog order, created when the revision was loaded', () => {
    expect(listModels(catalog, key(null))).toEqual([
      { id: 'alpha', object: 'model', created: 1_700_000_000, owned_by: 'acme' },
      { id: 'beta', object: 'model', created: 1_700_000_000, owned_by: 'acme' },
      { id: 'embed', object: 'model', created: 1_700_000_000, owned_by: 'acme' },
      { id: 'fast', object: 'model', created: 1_700_000_000, owned_by: 'gateway-route' },
      { id: 'vectors', object: 'model', created: 1_700_000_000, owned_by: 'gateway-route' },
    ]);
    expect(listModels(catalog, key(['beta', 'vectors', 'gone'])).map((m) => m.id)).toEqual(['beta', 'vectors']);
  });

  it('finds one model or route policy by name only when the key may use it and the catalog serves it', () => {
    expect(findModel(catalog, key(null), 'fast')).toMatchObject({ id: 'fast', owned_by: 'gateway-route' });
    expect(findModel(catalog, key(['alpha']), 'alpha')).toEqual(listModels(catalog, key(['alpha']))[0]);
    expect(findModel(catalog, key(['alpha']), 'beta')).toBeNull();
    expect(findModel(catalog, key(null), 'gamma')).toBeNull();
  });

  it('gives the catalog entries (optionally of one endpoint type), the route policies and the revision they come from', () => {
    const all = listCatalog(catalog, key(null));
    expect([all.pricing_version, all.catalog_revision]).toEqual([7, 3]);
    expect(all.entries.map((e) => e.id)).toEqual(['alpha', 'beta', 'embed']);
    expect(all.routes).toEqual([{ name: 'fast', models: ['beta', 'alpha'] }, { name: 'vectors', models: ['embed'] }]);
    expect(listCatalog(catalog, key(null), 'embeddings').entries.map((e) => e.id)).toEqual(['embed']);
    const narrow = listCatalog(catalog, key(['alpha', 'fast']));
    expect(narrow.entries.map((e) => e.id)).toEqual(['alpha']);
    expect(narrow.routes.map((r) => r.name)).toEqual(['fast']);
    expect(findCatalogEntry(catalog, key(['alpha']), 'alpha')).toEqual(narrow.entries[0]);
    expect(findCatalogEntry(catalog, key(['alpha']), 'beta')).toBeNull();
    expect(findCatalogEntry(catalog, key(null), 'fast')).toBeNull();
  });
});
