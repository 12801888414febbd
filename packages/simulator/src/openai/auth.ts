import type { IncomingMessage } from 'node:http';
import type { Route } from '../routing';
import { missingApiKey, sendOpenAIError } from './errors';

/**
 * Any non-empty bearer key is accepted: the simulator proves that the gateway
 * sends a key the OpenAI way, not which key.
 */
export function hasBearerKey(req: IncomingMessage): boolean {
  return /^Bearer\s+\S/i.test(req.headers.authorization ?? '');
}

export function requireBearerKey(route: Route): Route {
  return {
    ...route,
    handle: async (exchange) => {
      if (!hasBearerKey(exchange.req)) return sendOpenAIError(exchange.res, missingApiKey());
      return route.handle(exchange);
    },
  };
}
