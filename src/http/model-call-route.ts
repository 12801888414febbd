import type { UsageRecorder } from '../billing/usage-recorder';
import type { Logger } from '../observability/logger';
import type { DirectRoute } from './direct-routes';
import type { Middleware } from './http-types';
import { modelCallContext } from './model-call-context';

export interface ModelCallDeps {
  recorder: UsageRecorder;
  logger: Logger;
  jsonBody: Middleware;
}

/** A model-call endpoint (POST with a JSON body, one usage record), served as a direct route. */
export function modelCallRoute(path: string, deps: ModelCallDeps, handle: Middleware): DirectRoute {
  return { path, methods: { POST: [modelCallContext(path, deps.recorder, deps.logger), deps.jsonBody, handle] } };
}
