import type { SimulatorContext } from '../context';
import type { Route } from '../routing';
import { requireGeminiApiKey } from './auth';
import { type GenerateMethod, handleGenerateContent } from './generate-content';

/** The Gemini API under `/v1beta`, behind an API key as on generativelanguage.googleapis.com. */
export function geminiRoutes(context: SimulatorContext): Route[] {
  const routes: Route[] = [
    {
      method: 'POST',
      path: /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/,
      handle: (exchange) => handleGenerateContent(context, exchange, decodeURIComponent(exchange.params[0] ?? ''), exchange.params[1] as GenerateMethod),
    },
  ];
  return routes.map(requireGeminiApiKey);
}
