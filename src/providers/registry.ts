import type { ProviderType } from '../config/gateway-config-schema';
import type { ChatAdapter } from './chat-adapter';
import { openAIChatAdapter } from './openai/openai-chat';

/** Which adapter speaks each provider type's chat protocol. */
const CHAT_ADAPTERS: Partial<Record<ProviderType, ChatAdapter>> = {
  openai: openAIChatAdapter,
  xai: openAIChatAdapter,
};

export function chatAdapterFor(type: ProviderType): ChatAdapter | undefined {
  return CHAT_ADAPTERS[type];
}
