import type { ProviderType } from '../config/gateway-config-schema';
import type { VideoAdapter } from './video-adapter';

/** Which adapter speaks each provider type's video protocol; filled as the adapters land. */
const VIDEO_ADAPTERS: Partial<Record<ProviderType, VideoAdapter>> = {};

export function videoAdapterFor(type: ProviderType): VideoAdapter | undefined {
  return VIDEO_ADAPTERS[type];
}
