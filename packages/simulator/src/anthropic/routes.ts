import type { IncomingMessage } from 'node:http';
import type { SimulatorContext } from '../context';
import type { Route } from '../routing';
import { type AnthropicError, missingApiKey, missingVersion, sendAnthropicError, unknownVersion } from './errors';
import { handleCountTokens } from './count-tokens';
import { handleMessages } from './messages';
import { PromptCache } from './prompt-cache';

/**
 * The Anthropic API under `/v1`. Every call needs an `x-api-key` (any
 * non-empty key: the simulator proves that the gateway sends one the
 * Anthropic way, not which) and a known `anthropic-version`.
 * @see https://docs.anthropic.com/en/api/overview#authentication
 * @see https://docs.anthropic.com/en/api/versioning
 */
const KNOWN_VERSIONS = new Set(['2023-06-01', '2023-01-01']);

export function anthropicRoutes(context: SimulatorContext): Route[] {
  const promptCache = new PromptCache();
  const routes: Route[] = [
    { method: 'POST', path: /^\/v1\/messages$/, handle: (exchange) => handleMessages(context, promptCache, exchange) },
    { method: 'POST', path: /^\/v1\/messages\/count_tokens$/, handle: async (exchange) => handleCountTokens(exchange) },
  ];
  return routes.map(requireAnthropicHeaders);
}

function requireAnthropicHeaders(route: Route): Route {
  return {
    ...route,
    handle: async (exchange) => {
      const problem = headerProblem(exchange.req);
      if (problem) return sendAnthropicError(exchange.res, problem);
      return route.handle(exchange);
    },
  };
}

function headerProblem(req: IncomingMessage): AnthropicError | undefined {
  const key = req.headers['x-api-key'];
  if (typeof key !== 'string' || key.trim() === '') return missingApiKey();
  const version = req.headers['anthropic-version'];
  if (typeof version !== 'string' || version === '') return missingVersion();
  return KNOWN_VERSIONS.has(version) ? undefined : unknownVersion(version);
}
