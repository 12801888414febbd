import type { DirectRoute } from '../http/direct-routes';
import { modelCallRoute, type ModelCallDeps } from '../http/model-call-route';
import { locals } from '../http/request-locals';
import { sendJson } from '../http/send-json';
import { SEARCH_ENDPOINT, type SearchService } from './search-service';

/** `POST /v1/search`: one query, one usage record. */
export function searchRoute(search: SearchService, deps: ModelCallDeps): DirectRoute {
  return modelCallRoute(SEARCH_ENDPOINT, deps, async (req, res) => {
    sendJson(res, 200, await search.search(locals(res).context!, req.body));
  });
}
