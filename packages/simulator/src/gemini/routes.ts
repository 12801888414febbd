import type { SimulatorContext } from '../context';
import type { Route } from '../routing';
import { requireGeminiApiKey } from './auth';
import { handleCountTokens } from './count-tokens';
import { handleEmbedContent } from './embed-content';
import { type GenerateMethod, handleGenerateContent } from './generate-content';

/** The Gemini API under `/v1beta` (content generation, token counts and embeddings), behind an API key as on generativelanguage.googleapis.com. */
export function geminiRoutes(context: SimulatorContext): Route[] {
  const routes: Route[] = [
    {
      method: 'POST',
      path: /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/,
      handle: (exchange) => handleGenerateContent(context, exchange, decodeURIComponent(exchange.params[0] ?? ''), exchange.params[1] as GenerateMethod),
    },
    {
      method: 'POST',
      path: /^\/v1beta\/models\/([^/:]+):(embedContent|batchEmbedContents)$/,
      handle: (exchange) => handleEmbedContent(context, exchange, decodeURIComponent(exchange.params[0] ?? ''), exchange.params[1] as 'embedContent' | 'batchEmbedContents'),
    },
    {
      method: 'POST',
      path: /^\/v1beta\/models\/([^/:]+):countTokens$/,
      handle: (exchange) => handleCountTokens(context, exchange, decodeURIComponent(exchange.params[0] ?? '')),
    },
  ];
  return routes.map(requireGeminiApiKey);
}
