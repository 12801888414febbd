import type { ProviderType } from '../config/gateway-config-schema';
import { openAIVideosAdapter } from './openai-videos/openai-videos';
import type { VideoAdapter } from './video-adapter';
import { xaiVideoAdapter } from './xai/xai-video';

/** Which adapter speaks each provider type's video protocol. */
const VIDEO_ADAPTERS: Partial<Record<ProviderType, VideoAdapter>> = {
  xai: xaiVideoAdapter,
  openai: openAIVideosAdapter,
};

export function videoAdapterFor(type: ProviderType): VideoAdapter | undefined {
  return VIDEO_ADAPTERS[type];
}
