import type { GatewayConfig } from '../../config/gateway-config-schema';
import { ProviderConfigError } from '../resolved-provider';
import type { ResolvedSearchBackend } from './search-adapter';

/**
 * Resolves the enabled search backends, in their configured order, to an
 * address and a key. Simulated ones point at the built-in simulator (each
 * protocol under `/<type>`); a real one whose key variable is unset is a
 * configuration error, as for model providers.
 */
export function resolveSearchBackends(
  config: GatewayConfig,
  env: NodeJS.ProcessEnv,
  simulatorUrl: string | undefined,
): ResolvedSearchBackend[] {
  const out: ResolvedSearchBackend[] = [];
  for (const b of config.search.backends) {
    if (!b.enabled) continue;
    const common = { id: b.id, name: b.name ?? b.id, type: b.type, timeoutMs: b.timeout_ms, maxResults: b.max_results, headers: b.headers };
    if (b.simulator) {
      if (!simulatorUrl) throw new ProviderConfigError(`search backend "${b.id}" is simulated but the simulator is not running`);
      out.push({ ...common, baseUrl: `${simulatorUrl}/${b.type}`, apiKey: 'simulator', simulated: true });
      continue;
    }
    const apiKey = b.api_key_env ? env[b.api_key_env] : '';
    if (b.api_key_env && !apiKey) {
      throw new ProviderConfigError(`search backend "${b.id}": the environment variable ${b.api_key_env} (api_key_env) is not set`);
    }
    out.push({ ...common, baseUrl: b.base_url!.replace(/\/+$/, ''), apiKey: apiKey ?? '', simulated: false });
  }
  return out;
}
