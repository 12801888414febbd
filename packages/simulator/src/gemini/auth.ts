import type { Exchange, Route } from '../routing';
import { type GeminiError, apiKeyInvalid, sendGeminiError, unregisteredCaller } from './errors';

/**
 * The key goes in `x-goog-api-key` or the `key` query parameter. Any
 * non-blank key is accepted: the simulator proves that the gateway sends a
 * key the Google way, not which key. As on the real endpoint, no key at all
 * is refused by Google's front end (403), a blank one by the API (400,
 * `API_KEY_INVALID`).
 * @see https://ai.google.dev/api#authentication
 */
export function requireGeminiApiKey(route: Route): Route {
  return {
    ...route,
    handle: async (exchange) => {
      const refusal = apiKeyRefusal(exchange);
      if (refusal) return sendGeminiError(exchange.res, refusal);
      return route.handle(exchange);
    },
  };
}

function apiKeyRefusal({ req, query }: Exchange): GeminiError | undefined {
  const header = req.headers['x-goog-api-key'];
  const key = (Array.isArray(header) ? header[0] : header) ?? query.get('key');
  if (key === undefined || key === null) return unregisteredCaller();
  return key.trim() === '' ? apiKeyInvalid() : undefined;
}
