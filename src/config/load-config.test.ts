import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadGatewayConfig, parseConfigFile } from './load-config';

const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-config-'));
function file(name: string, text: string): string {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
}

const valid = `
providers:
  local:
    type: openai
    base_url: http://127.0.0.1:11434/v1
models:
  - id: llama
    owned_by: meta
    family: openai
    endpoint_types: [chat]
    context_window: 8192
    pricing: { input: "0.10", output: "0.20" }
    routes:
      - { provider: local, upstream_model: llama3.1:8b }
routes:
  - name: cheap
    models: [llama]
`;

describe('gateway config file', () => {
  it('loads a valid YAML file with defaults filled in', () => {
    const config = parseConfigFile(file('ok.yaml', valid));
    expect(config.models[0].routes[0].lane).toBe('standard');
    expect(config.models[0].capabilities.tools).toBe(false);
    expect(config.routes[0]).toEqual({ name: 'cheap', models: ['llama'] });
  });

  it('loads JSON too', () => {
    const json = { providers: { p: { type: 'openai', simulator: true } }, models: [{ id: 'm', owned_by: 'o', family: 'openai', endpoint_types: ['chat'], context_window: 10, pricing: { input: 1 }, routes: [{ provider: 'p', upstream_model: 'm' }] }] };
    expect(parseConfigFile(file('ok.json', JSON.stringify(json))).models[0].id).toBe('m');
  });

  it.each([
    ['an unknown provider in a route', valid.replace('provider: local,', 'provider: nowhere,'), 'models.0.routes.0.provider: unknown provider "nowhere"'],
    ['a price that is not a decimal', valid.replace('input: "0.10"', 'input: "ten cents"'), 'models.0.pricing.input'],
    ['a policy naming an unknown model', valid.replace('models: [llama]', 'models: [llama, ghost]'), 'routes.0.models.1: unknown model "ghost"'],
    ['an unknown field', valid.replace('owned_by: meta', 'owned_by: meta\n    colour: blue'), 'models.0'],
    ['a bad provider type', valid.replace('type: openai', 'type: carrier-pigeon'), 'providers.local.type'],
  ])('stops on %s, naming the file and the field', (_what, text, expected) => {
    const p = file(`bad-${Math.random()}.yaml`, text);
    expect(() => parseConfigFile(p)).toThrow(ConfigError);
    expect(() => parseConfigFile(p)).toThrow(p);
    expect(() => parseConfigFile(p)).toThrow(expected);
  });

  it('names the file when it is not YAML at all', () => {
    const p = file('broken.yaml', 'models: [unclosed');
    expect(() => parseConfigFile(p)).toThrow(`${p}: not valid YAML`);
  });

  it('the default catalog uses the simulator for providers without a key, and real upstreams with one', () => {
    const none = loadGatewayConfig({}).config;
    expect(none.providers.openai.simulator).toBe(true);
    const withKey = loadGatewayConfig({ OPENAI_API_KEY: 'sk-x', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }).config;
    expect(withKey.providers.openai).toMatchObject({ simulator: false, base_url: 'http://127.0.0.1:9/v1' });
    expect(withKey.providers.anthropic.simulator).toBe(true);
    const ids = none.models.map((m) => m.id);
    for (const id of ['gpt-4.1-mini', 'gpt-4.1', 'o3', 'o4-mini', 'claude-sonnet-4-5', 'claude-opus-4-6', 'claude-haiku-4-5', 'gemini-2.5-flash', 'gemini-2.5-pro', 'text-embedding-3-small', 'text-embedding-3-large']) {
      expect(ids).toContain(id);
    }
    expect(none.models.find((m) => m.id === 'text-embedding-3-large')!.embedding!.dimensions).toBe(3072);
  });

  it('switches off what has no key where there is no simulator to serve it, and says what it switched off', () => {
    const loaded = loadGatewayConfig({ GATEWAY_UNKEYED_PROVIDERS: 'disabled', OPENAI_API_KEY: 'sk-x', TAVILY_API_KEY: 'tv-x' });
    expect(loaded.config.providers.openai).toMatchObject({ enabled: true, simulator: false });
    expect(loaded.config.providers.anthropic).toMatchObject({ enabled: false, simulator: false });
    expect(loaded.config.search.backends.find((b) => b.id === 'tavily')).toMatchObject({ enabled: true, simulator: false });
    expect(loaded.config.search.backends.find((b) => b.id === 'exa')).toMatchObject({ enabled: false, simulator: false });
    expect(loaded.unkeyed).toEqual(['provider anthropic', 'provider gemini', 'provider xai', 'provider voyage', 'search backend serper', 'search backend exa']);
    // This checkout has the simulator: auto and simulator serve the unkeyed ones with it.
    for (const mode of ['auto', 'simulator']) {
      const simulated = loadGatewayConfig({ GATEWAY_UNKEYED_PROVIDERS: mode });
      expect(simulated.config.providers.anthropic).toMatchObject({ enabled: true, simulator: true });
      expect(simulated.unkeyed).toBeUndefined();
    }
    expect(() => loadGatewayConfig({ GATEWAY_UNKEYED_PROVIDERS: 'off' })).toThrow(ConfigError);
  });
});
