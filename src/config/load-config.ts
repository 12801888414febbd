import { readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { z } from 'zod';
import { gatewayConfigSchema, type GatewayConfig, type GatewayConfigInput } from './gateway-config-schema';
import { DEFAULT_MODELS, DEFAULT_PROVIDERS, DEFAULT_ROUTES, DEFAULT_SEARCH_BACKENDS, OPERATOR_SEARCH_BACKENDS } from './default-catalog';
import { simulatorInstalled } from './simulator-installed';

/** A config file that cannot be used; the message names the file and the field. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Reads the gateway config: the file named by GATEWAY_CONFIG, or the default
 * catalog. For the default catalog, a provider or search backend whose API
 * key variable is unset is served by the built-in simulator, or switched off
 * (its models gone) where the install has no simulator, as the production
 * image does not (`GATEWAY_UNKEYED_PROVIDERS`: `auto`, the default, decides
 * so; `simulator` or `disabled` say which); `<PREFIX>_BASE_URL` overrides
 * the upstream address (OPENAI_BASE_URL, ANTHROPIC_BASE_URL, ...).
 */
export function loadGatewayConfig(env: NodeJS.ProcessEnv): LoadedConfig {
  const file = env.GATEWAY_CONFIG;
  if (file) {
    const document = readConfigDocument(file);
    return { config: validateConfig(document, file), document, source: path.resolve(file), file: path.resolve(file) };
  }
  const unkeyed = unkeyedMode(env);
  const document = defaultConfigDocument(env, unkeyed);
  const off = unkeyed === 'disabled' ? unkeyedNames(document) : [];
  return { config: validateConfig(document, 'built-in default catalog'), document, source: 'built-in default catalog', ...(off.length ? { unkeyed: off } : {}) };
}

export interface LoadedConfig {
  config: GatewayConfig;
  /** Providers and search backends of the default catalog switched off for want of a key (see GATEWAY_UNKEYED_PROVIDERS). */
  unkeyed?: string[];
  /** The config as written, before defaults: what the catalog store keeps and edits. */
  document: unknown;
  /** Where it came from, for logs. */
  source: string;
  /** The config file, when there is one (it is watched for edits). */
  file?: string;
}

export function parseConfigFile(file: string): GatewayConfig {
  return validateConfig(readConfigDocument(file), file);
}

/** A config file's contents as written (YAML or JSON), not yet validated. */
export function readConfigDocument(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`GATEWAY_CONFIG: cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    return /\.json$/i.test(file) ? JSON.parse(text) : YAML.parse(text);
  } catch (err) {
    throw new ConfigError(`${file}: not valid ${/\.json$/i.test(file) ? 'JSON' : 'YAML'}: ${(err as Error).message}`);
  }
}

export function validateConfig(raw: unknown, origin: string): GatewayConfig {
  const parsed = gatewayConfigSchema.safeParse(raw);
  if (!parsed.success) throw new ConfigError(`${origin}: invalid gateway config:\n${formatIssues(parsed.error)}`);
  return parsed.data;
}

function formatIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `  - ${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`).join('\n');
}

/** What becomes of a default provider or search backend without a key: served by the simulator, or off. */
type UnkeyedMode = 'simulator' | 'disabled';

function unkeyedMode(env: NodeJS.ProcessEnv): UnkeyedMode {
  const mode = env.GATEWAY_UNKEYED_PROVIDERS || 'auto';
  if (mode === 'simulator' || mode === 'disabled') return mode;
  if (mode !== 'auto') throw new ConfigError(`GATEWAY_UNKEYED_PROVIDERS must be auto, simulator or disabled, not "${mode}".`);
  return simulatorInstalled() ? 'simulator' : 'disabled';
}

/** The switched-off providers and backends of a default document, by name. */
function unkeyedNames(document: GatewayConfigInput): string[] {
  return [
    ...Object.entries(document.providers).filter(([, p]) => p.enabled === false).map(([name]) => `provider ${name}`),
    ...(document.search?.backends ?? []).filter((b) => b.enabled === false).map((b) => `search backend ${b.id}`),
  ];
}

function defaultConfigDocument(env: NodeJS.ProcessEnv, unkeyed: UnkeyedMode): GatewayConfigInput {
  const providers: GatewayConfigInput['providers'] = {};
  for (const [name, provider] of Object.entries(DEFAULT_PROVIDERS)) {
    const prefix = provider.api_key_env.replace(/_API_KEY$/, '');
    providers[name] = {
      ...provider,
      base_url: env[`${prefix}_BASE_URL`] || provider.base_url,
      ...withoutKey(Boolean(env[provider.api_key_env]), unkeyed),
    };
  }
  return { providers, models: DEFAULT_MODELS, routes: DEFAULT_ROUTES, search: { backends: defaultSearchBackends(env, unkeyed) }, decisions: { enabled: false, question_generation: false, generator_model: 'gpt-4.1-mini' } };
}

/** A keyed entry goes upstream; one without a key is simulated or off. */
function withoutKey(keyed: boolean, unkeyed: UnkeyedMode): { simulator: boolean; enabled?: false } {
  if (keyed) return { simulator: false };
  return unkeyed === 'simulator' ? { simulator: true } : { simulator: false, enabled: false };
}

/**
 * The hosted search backends, simulated unless `<TYPE>_API_KEY` is set and
 * at `<TYPE>_BASE_URL` when that is; SearXNG once `SEARXNG_BASE_URL` names
 * an instance, Brave once `BRAVE_API_KEY` is set.
 */
function defaultSearchBackends(env: NodeJS.ProcessEnv, unkeyed: UnkeyedMode): NonNullable<GatewayConfigInput['search']>['backends'] {
  const backends: NonNullable<NonNullable<GatewayConfigInput['search']>['backends']> = DEFAULT_SEARCH_BACKENDS.map((b) => ({
    ...b,
    base_url: env[`${b.type.toUpperCase()}_BASE_URL`] || b.base_url,
    ...withoutKey(Boolean(env[b.api_key_env]), unkeyed),
  }));
  if (env.SEARXNG_BASE_URL) backends.push({ ...OPERATOR_SEARCH_BACKENDS.searxng, base_url: env.SEARXNG_BASE_URL });
  if (env.BRAVE_API_KEY) backends.push({ ...OPERATOR_SEARCH_BACKENDS.brave, base_url: env.BRAVE_BASE_URL || OPERATOR_SEARCH_BACKENDS.brave.base_url });
  return backends;
}
