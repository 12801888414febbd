import { PriceTable } from '../billing/price-table';
import { gatewayConfigSchema, type GatewayConfig, type GatewayConfigInput } from '../config/gateway-config-schema';
import { GatewayError } from '../errors/gateway-error';
import type { Principal } from '../keys/principal';
import { resolveProviders } from '../providers/resolved-provider';
import { Catalog } from './catalog';
import { catalogEntry } from './catalog-entry';

const chat = (id: string, routes: GatewayConfigInput['models'][number]['routes']) => ({
  id, owned_by: 'x', family: 'openai', endpoint_types: ['chat' as const], context_window: 8000, pricing: { input: '1', output: '2' }, routes,
});

const config = gatewayConfigSchema.parse({
  providers: {
    primary: { type: 'openai', base_url: 'https://primary.example/v1/', api_key_env: 'PRIMARY_KEY' },
    backup: { type: 'anthropic', simulator: true },
  },
  models: [
    chat('alpha', [
      { provider: 'primary', upstream_model: 'alpha-2025' },
      { provider: 'backup', upstream_model: 'claude-alpha', lane: 'fallback' },
    ]),
    chat('beta', [{ provider: 'backup', upstream_model: 'claude-beta' }]),
    {
      id: 'embed', owned_by: 'x', family: 'openai-embedding', endpoint_types: ['embeddings'], context_window: 8191,
      embedding: { dimensions: 8 }, pricing: { input: '0.02' }, routes: [{ provider: 'primary', upstream_model: 'text-embedding-3-small' }],
    },
  ],
  routes: [
    { name: 'fast', models: ['beta', 'alpha'] },
    { name: 'mixed', models: ['embed', 'alpha'] },
    { name: 'vectors', models: ['embed'] },
  ],
});
const contentsOf = (cfg: GatewayConfig) => ({
  config: cfg,
  providers: resolveProviders(cfg, { PRIMARY_KEY: 'sk-primary' }, 'http://127.0.0.1:8090'),
  pricing: { prices: new PriceTable(cfg.models), version: 1 },
  searchBackends: [],
  mcpServers: [],
  decisions: { enabled: true, questionGeneration: false, generatorModel: undefined },
  revision: 1,
  loadedAt: 0,
});
const catalog = new Catalog(contentsOf(config));

const principal = (allowed: string[] | null): Principal => ({
  keyId: 'key_1', accountId: 'acc_1', projectId: null, memberId: null, keyName: 'test',
  allowedModels: allowed ? new Set(allowed) : null, expiresAt: null, parentKeyId: null, allowedDomains: null, mcpTools: [], spendControlled: false,
});
const anyModel = principal(null);
const CHAT = '/v1/chat/completions';

/** Each candidate as model@provider/upstream_model#lane, in the order to try. */
const order = (name: string, who = anyModel, endpoint: 'chat' | 'embeddings' = 'chat') =>
  catalog.resolve(name, who, endpoint, endpoint === 'chat' ? CHAT : '/v1/embeddings').map((c) => `${c.model.id}@${c.route.provider.name}/${c.route.upstreamModel}#${c.route.lane}`);

function refusal(name: string, who: Principal, endpoint: 'chat' | 'embeddings' = 'chat', path = CHAT): GatewayError {
  try {
    catalog.resolve(name, who, endpoint, path);
  } catch (err) {
    expect(err).toBeInstanceOf(GatewayError);
    return err as GatewayError;
  }
  throw new Error('expected a refusal');
}

describe('Catalog.resolve', () => {
  it.each([
    ['a model id: its routes in order', 'alpha', ['alpha@primary/alpha-2025#standard', 'alpha@backup/claude-alpha#fallback']],
    ['a single-route model', 'beta', ['beta@backup/claude-beta#standard']],
    ['a route policy: its models in order, each with its routes', 'fast', ['beta@backup/claude-beta#standard', 'alpha@primary/alpha-2025#standard', 'alpha@backup/claude-alpha#fallback']],
    ['a policy with a model off this endpoint: the others only', 'mixed', ['alpha@primary/alpha-2025#standard', 'alpha@backup/claude-alpha#fallback']],
  ])('%s', (_, name, expected) => {
    expect(order(name)).toEqual(expected);
  });

  it('filters a policy by endpoint the other way too', () => {
    expect(order('mixed', anyModel, 'embeddings')).toEqual(['embed@primary/text-embedding-3-small#standard']);
  });

  it('candidates carry the resolved provider and the catalog config', () => {
    const [first, second] = catalog.resolve('alpha', anyModel, 'chat', CHAT);
    expect(first.route.provider).toEqual({
      name: 'primary', type: 'openai', baseUrl: 'https://primary.example/v1', apiKey: 'sk-primary', timeoutMs: 600_000, headers: {}, simulated: false,
    });
    expect(second.route.provider).toMatchObject({ name: 'backup', type: 'anthropic', baseUrl: 'http://127.0.0.1:8090/v1', apiKey: 'simulator', simulated: true });
    expect(first.model.config.id).toBe('alpha');
    expect(first.route.config).toEqual({ provider: 'primary', upstream_model: 'alpha-2025', lane: 'standard' });
  });

  it.each<[string, string, Principal, 'chat' | 'embeddings', string, number, string, string]>([
    // [why, name, principal, endpoint, path, status, code, message fragment]
    ['an unknown name', 'gamma', anyModel, 'chat', CHAT, 404, 'model_not_found', 'The model "gamma" does not exist.'],
    ['names are case-sensitive', 'Alpha', anyModel, 'chat', CHAT, 404, 'model_not_found', '"Alpha"'],
    ['a #thinking name is not split here', 'alpha#thinking', anyModel, 'chat', CHAT, 404, 'model_not_found', '"alpha#thinking"'],
    ['an unknown name, even for a restricted key', 'gamma', principal(['alpha']), 'chat', CHAT, 404, 'model_not_found', '"gamma"'],
    ['a model the key may not use', 'alpha', principal(['beta']), 'chat', CHAT, 403, 'model_not_allowed', 'This API key may not use the model "alpha".'],
    ['a key with an empty allow list', 'beta', principal([]), 'chat', CHAT, 403, 'model_not_allowed', '"beta"'],
    ['a policy the key may not use, though it may use its models', 'fast', principal(['alpha', 'beta']), 'chat', CHAT, 403, 'model_not_allowed', '"fast"'],
    ['a model off this endpoint', 'embed', anyModel, 'chat', CHAT, 400, 'model_not_supported_on_endpoint', 'The model "embed" does not serve /v1/chat/completions.'],
    ['a policy whose models are all off this endpoint', 'vectors', anyModel, 'chat', CHAT, 400, 'model_not_supported_on_endpoint', '"vectors" does not serve /v1/chat/completions'],
    ['a chat model on embeddings', 'alpha', anyModel, 'embeddings', '/v1/embeddings', 400, 'model_not_supported_on_endpoint', 'does not serve /v1/embeddings'],
  ])('refuses %s', (_, name, who, endpoint, path, status, code, fragment) => {
    const err = refusal(name, who, endpoint, path);
    expect({ status: err.status, code: err.code, param: err.options.param }).toEqual({ status, code, param: 'model' });
    expect(err.message).toContain(fragment);
  });

  it('checks the key before the endpoint', () => {
    expect(refusal('embed', principal(['alpha'])).code).toBe('model_not_allowed');
  });

  it('a key restricted to a policy may use it, and reaches its models through it', () => {
    const policyOnly = principal(['fast']);
    expect(order('fast', policyOnly)).toHaveLength(3);
    expect(refusal('alpha', policyOnly).code).toBe('model_not_allowed');
  });

  it('lists what a key may use', () => {
    const visible = catalog.visibleTo(principal(['alpha', 'vectors', 'gamma']));
    expect(visible.models.map((m) => m.id)).toEqual(['alpha']);
    expect(visible.policies.map((p) => p.name)).toEqual(['vectors']);
    const all = catalog.visibleTo(anyModel);
    expect(all.models.map((m) => m.id)).toEqual(['alpha', 'beta', 'embed']);
    expect(all.policies).toEqual([{ name: 'fast', models: ['beta', 'alpha'] }, { name: 'mixed', models: ['embed', 'alpha'] }, { name: 'vectors', models: ['embed'] }]);
  });

  it('looks models up by id', () => {
    expect(catalog.model('beta')?.routes.map((r) => r.upstreamModel)).toEqual(['claude-beta']);
    expect(catalog.model('fast')).toBeUndefined();
  });

  describe('disabled models and provider channels', () => {
    const edited = (edit: (input: GatewayConfigInput) => void) => {
      const input = structuredClone(config) as GatewayConfigInput;
      edit(input);
      return new Catalog(contentsOf(gatewayConfigSchema.parse(input)));
    };

    it('a disabled model is not found, not listed, and leaves the policies that named it', () => {
      const c = edited((input) => void (input.models.find((m) => m.id === 'beta')!.enabled = false));
      expect(() => c.resolve('beta', anyModel, 'chat', '/v1/chat/completions')).toThrow(expect.objectContaining({ code: 'model_not_found' }));
      expect(c.visibleTo(anyModel).models.map((m) => m.id)).not.toContain('beta');
      expect(c.resolve('fast', anyModel, 'chat', '/v1/chat/completions').map((x) => x.model.id)).toEqual(['alpha', 'alpha']);
    });

    it('a disabled provider drops its routes; a model left with none is gone, as is a policy left empty', () => {
      const c = edited((input) => void (input.providers.backup!.enabled = false));
      expect(c.resolve('alpha', anyModel, 'chat', '/v1/chat/completions').map((x) => x.route.provider.name)).toEqual(['primary']);
      expect(c.model('beta')).toBeUndefined();
      const d = edited((input) => {
        input.models.find((m) => m.id === 'embed')!.enabled = false;
      });
      expect(() => d.resolve('vectors', anyModel, 'embeddings', '/v1/embeddings')).toThrow(expect.objectContaining({ code: 'model_not_found' }));
    });

    it('replace swaps what is served at once', () => {
      const c = new Catalog(contentsOf(config));
      const next = structuredClone(config) as GatewayConfigInput;
      next.models.find((m) => m.id === 'alpha')!.enabled = false;
      c.replace({ ...contentsOf(gatewayConfigSchema.parse(next)), revision: 2 });
      expect(c.model('alpha')).toBeUndefined();
      expect(c.contents.revision).toBe(2);
    });

    it('tells its listeners of each replacement, once it serves the new contents', () => {
      const c = new Catalog(contentsOf(config));
      const seen: number[] = [];
      c.onReplace((contents) => seen.push(contents.revision, c.contents.revision));
      c.replace({ ...contentsOf(config), revision: 2 });
      c.replace({ ...contentsOf(config), revision: 3 });
      expect(seen).toEqual([2, 2, 3, 3]);
    });
  });

  describe('catalog entries', () => {
    const entry = (id: string, c = catalog) => catalogEntry(c.model(id)!, c.currentPricing());

    const own = (id: string) => entry(id).supported_endpoints.filter((e) => !e.path.startsWith('/v1beta/') && !e.path.startsWith('/v1/messages'));

    it('marks an endpoint native only when every route speaks its protocol, and a bridge otherwise', () => {
      expect(own('embed')).toEqual([{ path: '/v1/embeddings', mode: 'native' }]);
      expect(own('alpha')).toEqual([{ path: '/v1/chat/completions', mode: 'stateless_bridge' }]);
      expect(own('beta')).toEqual([{ path: '/v1/chat/completions', mode: 'stateless_bridge' }]);
    });

    it('lists the Messages and Gemini dialects of each chat and embeddings model, native where every route speaks them', () => {
      const paths = (id: string) => Object.fromEntries(entry(id).supported_endpoints.map((e) => [e.path, e.mode]));
      expect(paths('beta')).toMatchObject({
        '/v1/messages': 'native',
        '/v1/messages/count_tokens': 'native',
        '/v1beta/models/beta:generateContent': 'stateless_bridge',
        '/v1beta/models/beta:streamGenerateContent': 'stateless_bridge',
        '/v1beta/models/beta:countTokens': 'stateless_bridge',
      });
      // One route of alpha is OpenAI's: its Messages calls are translated.
      expect(paths('alpha')['/v1/messages']).toBe('stateless_bridge');
      expect(paths('embed')).toEqual({ '/v1/embeddings': 'native', '/v1beta/models/embed:embedContent': 'stateless_bridge', '/v1beta/models/embed:batchEmbedContents': 'stateless_bridge' });
    });

    it('takes the mode from the catalog where it says', () => {
      const input = structuredClone(config) as GatewayConfigInput;
      input.models.find((m) => m.id === 'beta')!.endpoint_modes = { chat: 'native' };
      expect(entry('beta', new Catalog(contentsOf(gatewayConfigSchema.parse(input)))).supported_endpoints[0]!.mode).toBe('native');
    });

    it('fills limits, decision and cache fields from the catalog', () => {
      const input = structuredClone(config) as GatewayConfigInput;
      Object.assign(input.models.find((m) => m.id === 'beta')!, {
        endpoint_types: ['chat', 'decisions'], max_input_tokens: 6000,
        decision: { inputs: ['text', 'json', 'image'], max_state_bytes: 2000 },
        pricing: { input: '1', output: '2', cache_read: '0.1', cache_miss: '1' },
      });
      const e = entry('beta', new Catalog(contentsOf(gatewayConfigSchema.parse(input))));
      expect(e.max_input_tokens).toBe(6000);
      expect(e.max_state_bytes).toBe(2000);
      expect(e.decision_capabilities).toEqual({ inputs: ['text', 'json', 'image'], question_kinds: ['noul', 'choice', 'score'], max_questions: 64, max_images: 4 });
      expect(e.cache.priced_dimensions).toEqual(['cache_read', 'cache_miss']);
      expect(e.supported_endpoints.map((x) => x.path).filter((p) => !p.startsWith('/v1beta/') && !p.startsWith('/v1/messages'))).toEqual(['/v1/chat/completions', '/v1/decisions']);
      expect(entry('alpha').decision_capabilities).toBeNull();
    });
  });
});
