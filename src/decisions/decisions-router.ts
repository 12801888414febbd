import { GatewayError } from '../errors/gateway-error';
import type { DirectRoute } from '../http/direct-routes';
import { modelCallRoute, type ModelCallDeps } from '../http/model-call-route';
import { locals } from '../http/request-locals';
import { sendJson } from '../http/send-json';
import type { DecisionService } from './decision-service';
import { DECISIONS_ENDPOINT } from './decisions-endpoint';

/** `POST /v1/decisions`: one JSON answer, no stream; 404 while the operator has decisions off. */
export function decisionsRoute(decisions: DecisionService, deps: ModelCallDeps): DirectRoute {
  return modelCallRoute(DECISIONS_ENDPOINT, deps, async (req, res) => {
    if (!decisions.enabled) {
      throw new GatewayError('decisions_disabled', 'The decisions endpoint is turned off on this gateway. The operator enables it with GATEWAY_DECISIONS_ENABLED=true (or decisions.enabled in the config file).');
    }
    sendJson(res, 200, await decisions.decide(locals(res).context!, req.body));
  });
}
