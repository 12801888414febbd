import type { UsageRecorder } from '../billing/usage-recorder';
import type { RateLimits } from '../limits/rate-limits';
import type { LimitedEndpoint } from '../limits/token-estimate';
import type { Logger } from '../observability/logger';
import type { DirectRoute } from './direct-routes';
import type { ErrorStyle } from './error-style';
import type { HttpRequest, Middleware } from './http-types';
import type { IdempotencyStore } from './idempotency-store';
import { idempotent } from './idempotent';
import { ModelCallGate } from '../model-call/model-call-gate';
import { modelCallContext } from './model-call-context';
import { rateLimited } from './rate-limited';

export interface ModelCallDeps {
  recorder: UsageRecorder;
  logger: Logger;
  jsonBody: Middleware;
  /** Where Idempotency-Key claims are kept; without it the header is not read. */
  idempotency?: IdempotencyStore;
  /** Requests and tokens per minute; without it nothing is counted. */
  rateLimits?: RateLimits;
}

/** What each direct model-call path counts against the token limits (see limits/token-estimate.ts). */
const LIMITED_ENDPOINTS: Record<string, LimitedEndpoint> = { '/v1/chat/completions': 'chat', '/v1/responses': 'responses', '/v1/embeddings': 'embeddings', '/v1/search': 'search', '/v1/decisions': 'decisions' };

/** How a door that speaks another client dialect serves its model-call path. */
export interface ModelCallRouteOptions {
  /** What the rate limits count the request body as, where the path is not one of the gateway's own. */
  limited?: LimitedEndpoint;
  /** How its errors are worded (the gateway's envelope by default). */
  errorStyle?: ErrorStyle;
  /**
   * For a route that serves several methods under one path prefix (Gemini's
   * `/v1beta/models/{model}:{method}`, `path` ending in `/`): what each
   * request is, read from its path. It is asked before the call opens, so a
   * path the route does not serve is refused (thrown) before any usage
   * ticket exists.
   */
  callOf?: (req: HttpRequest) => ModelCallOfPath;
}

/** One request to a prefix route: its usage record's and Idempotency-Key's endpoint, its rate-limit kind, the model its path names, and whether its method streams. */
export interface ModelCallOfPath {
  endpoint: string;
  limited: LimitedEndpoint;
  model: string;
  streamed: boolean;
}

/** A model-call endpoint (POST with a JSON body, one usage record, Idempotency-Key honoured), served as a direct route. */
export function modelCallRoute(path: string, deps: ModelCallDeps, handle: Middleware, options: ModelCallRouteOptions = {}): DirectRoute {
  const gate = new ModelCallGate(deps);
  const { callOf } = options;
  if (callOf) {
    const endpointOf = (req: HttpRequest) => callOf(req).endpoint;
    const retries = deps.idempotency ? [idempotent(deps.idempotency, endpointOf, deps.logger, (req) => callOf(req).streamed)] : [];
    const limited = deps.rateLimits ? [rateLimited(gate, (req) => { const call = callOf(req); return { endpoint: call.limited, model: call.model }; })] : [];
    return { path, match: 'prefix', errorStyle: options.errorStyle, methods: { POST: [modelCallContext(endpointOf, gate), deps.jsonBody, ...limited, ...retries, handle] } };
  }
  const retries = deps.idempotency ? [idempotent(deps.idempotency, path, deps.logger)] : [];
  const limitedAs = options.limited ?? LIMITED_ENDPOINTS[path];
  const limited = deps.rateLimits && limitedAs ? [rateLimited(gate, limitedAs)] : [];
  return { path, errorStyle: options.errorStyle, methods: { POST: [modelCallContext(path, gate), deps.jsonBody, ...limited, ...retries, handle] } };
}
