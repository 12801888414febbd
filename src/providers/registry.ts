import type { ProviderType } from '../config/gateway-config-schema';
import { anthropicChatAdapter } from './anthropic/anthropic-chat';
import type { ChatAdapter } from './chat-adapter';
import { geminiChatAdapter } from './gemini/gemini-chat';
import { openAIChatAdapter } from './openai/openai-chat';

/** Which adapter speaks each provider type's chat protocol. */
const CHAT_ADAPTERS: Partial<Record<ProviderType, ChatAdapter>> = {
  anthropic: anthropicChatAdapter,
  gemini: geminiChatAdapter,
  openai: openAIChatAdapter,
  xai: openAIChatAdapter,
};

export function chatAdapterFor(type: ProviderType): ChatAdapter | undefined {
  return CHAT_ADAPTERS[type];
}
