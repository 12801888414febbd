import type { UsageRecorder } from '../billing/usage-recorder';
import type { RateLimits } from '../limits/rate-limits';
import type { LimitedEndpoint } from '../limits/token-estimate';
import type { Logger } from '../observability/logger';
import type { DirectRoute } from './direct-routes';
import type { Middleware } from './http-types';
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

/** A model-call endpoint (POST with a JSON body, one usage record, Idempotency-Key honoured), served as a direct route. */
export function modelCallRoute(path: string, deps: ModelCallDeps, handle: Middleware): DirectRoute {
  const gate = new ModelCallGate(deps);
  const retries = deps.idempotency ? [idempotent(deps.idempotency, path, deps.logger)] : [];
  const limited = deps.rateLimits && LIMITED_ENDPOINTS[path] ? [rateLimited(gate, LIMITED_ENDPOINTS[path]!)] : [];
  return { path, methods: { POST: [modelCallContext(path, gate), deps.jsonBody, ...limited, ...retries, handle] } };
}
