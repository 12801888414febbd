import type { GatewayConfig, ProviderType } from '../config/gateway-config-schema';
import { normalizeBaseUrl } from './base-url';

/** A provider ready to call: where, with which credential. */
export interface ResolvedProvider {
  name: string;
  type: ProviderType;
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  headers: Record<string, string>;
  simulated: boolean;
}

/** The path under the simulator's address where each protocol is served. */
export const SIMULATOR_BASE_PATH: Record<ProviderType, string> = {
  openai: '/v1',
  xai: '/v1',
  anthropic: '/v1',
  gemini: '/v1beta',
  voyage: '/voyage/v1',
};

export class ProviderConfigError extends Error {}

/**
 * Resolves each enabled provider to an address and a key (a disabled one
 * serves no route, so it needs neither). Simulated providers point at the
 * built-in simulator; a real provider without its key variable set is a
 * configuration error.
 */
export function resolveProviders(
  config: GatewayConfig,
  env: NodeJS.ProcessEnv,
  simulatorUrl: string | undefined,
): Map<string, ResolvedProvider> {
  const out = new Map<string, ResolvedProvider>();
  for (const [name, p] of Object.entries(config.providers)) {
    if (!p.enabled) continue;
    if (p.simulator) {
      if (!simulatorUrl) throw new ProviderConfigError(`provider "${name}" is simulated but the simulator is not running`);
      out.set(name, {
        name, type: p.type, baseUrl: simulatorUrl + SIMULATOR_BASE_PATH[p.type], apiKey: 'simulator',
        timeoutMs: p.timeout_ms, headers: p.headers, simulated: true,
      });
      continue;
    }
    if (!p.base_url) throw new ProviderConfigError(`provider "${name}": base_url is required unless simulator is true`);
    const apiKey = p.api_key_env ? env[p.api_key_env] : '';
    if (p.api_key_env && !apiKey) {
      throw new ProviderConfigError(`provider "${name}": the environment variable ${p.api_key_env} (api_key_env) is not set`);
    }
    out.set(name, {
      name, type: p.type, baseUrl: normalizeBaseUrl(p.type, p.base_url), apiKey: apiKey ?? '',
      timeoutMs: p.timeout_ms, headers: p.headers, simulated: false,
    });
  }
  return out;
}

export function needsSimulator(config: GatewayConfig): boolean {
  return Object.values(config.providers).some((p) => p.simulator) || config.search.backends.some((b) => b.simulator);
}
