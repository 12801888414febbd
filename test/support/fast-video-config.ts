import { loadGatewayConfig } from '../../src/config/load-config';
import type { GatewayConfigInput } from '../../src/config/gateway-config-schema';

/** The default catalog, on the simulator, with video polling sped up from seconds to milliseconds for tests. */
export function fastVideoConfig(polling: Partial<{ first_poll_after_ms: number; interval_ms: number; max_interval_ms: number; timeout_ms: number }> = {}): GatewayConfigInput {
  const base = loadGatewayConfig({}).config;
  const fast = { first_poll_after_ms: 100, interval_ms: 100, max_interval_ms: 150, timeout_ms: 10_000, ...polling };
  return { ...base, models: base.models.map((m) => (m.video ? { ...m, video: { ...m.video, polling: fast } } : m)) };
}
