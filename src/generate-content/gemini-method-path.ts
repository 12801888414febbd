import { Errors } from '../errors/errors';
import { GatewayError } from '../errors/gateway-error';
import { requestPath, type HttpRequest } from '../http/http-types';
import type { ModelCallOfPath } from '../http/model-call-route';
import type { GeminiLimitedEndpoint } from '../limits/token-estimate';

/** Where the Gemini API's models live: `/v1beta/models/{model}` and `/v1beta/models/{model}:{method}`. */
export const GEMINI_MODELS_PATH = '/v1beta/models';

/** The methods served on a model, and what the rate limits count each as. */
const METHODS = {
  generateContent: 'generate_content',
  streamGenerateContent: 'generate_content',
  countTokens: 'count_tokens',
  embedContent: 'embed_content',
  batchEmbedContents: 'embed_content',
} as const satisfies Record<string, GeminiLimitedEndpoint>;

export type GeminiMethod = keyof typeof METHODS;

/**
 * The model and method a Gemini path names. A catalog id may hold `.`, `/`
 * and `:` (`vendor/model:tag`), so the method is what follows the last `:`;
 * a `models/` the client repeated is dropped, and percent-escapes are read.
 * A path without a method names a model (`GET`).
 */
export function modelPathOf(req: HttpRequest): { model: string; method: string | undefined } {
  const path = requestPath(req);
  const rest = path.slice(GEMINI_MODELS_PATH.length + 1).replace(/\/$/, '');
  const colon = rest.lastIndexOf(':');
  const name = colon === -1 ? rest : rest.slice(0, colon);
  let model: string;
  try {
    model = decodeURIComponent(name).replace(/^models\//, '');
  } catch {
    throw new GatewayError('invalid_request', `The model name in the path "${path}" has a malformed percent-escape.`);
  }
  if (!model) throw Errors.notFound(req.method ?? 'POST', path);
  return { model, method: colon === -1 ? undefined : rest.slice(colon + 1) };
}

/** A POST's model and method, the method one the gateway serves; anything else is 404 naming the methods there are. */
export function modelCallOf(req: HttpRequest): { model: string; method: GeminiMethod } {
  const { model, method } = modelPathOf(req);
  if (method === undefined || !(method in METHODS)) {
    throw new GatewayError('not_found', `No method ${method === undefined ? '' : `"${method}" `}on ${GEMINI_MODELS_PATH}/{model}: POST one of ${Object.keys(METHODS).map((m) => `:${m}`).join(', ')}.`);
  }
  return { model, method: method as GeminiMethod };
}

/** What a request to the Gemini prefix route is, for its usage record, Idempotency-Key and rate limits. */
export function geminiCallOf(req: HttpRequest): ModelCallOfPath {
  const { model, method } = modelCallOf(req);
  return { endpoint: geminiEndpoint(method), limited: METHODS[method], model, streamed: method === 'streamGenerateContent' };
}

/** The endpoint a usage record names: the method's path with the model left as `{model}`. */
export function geminiEndpoint(method: GeminiMethod): string {
  return `${GEMINI_MODELS_PATH}/{model}:${method}`;
}
