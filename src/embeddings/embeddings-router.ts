import type { DirectRoute } from '../http/direct-routes';
import { modelCallRoute, type ModelCallDeps } from '../http/model-call-route';
import { locals } from '../http/request-locals';
import { sendJson } from '../http/send-json';
import { EMBEDDINGS_ENDPOINT, type EmbeddingsService } from './embeddings-service';

export function embeddingsRoute(embeddings: EmbeddingsService, deps: ModelCallDeps): DirectRoute {
  return modelCallRoute(EMBEDDINGS_ENDPOINT, deps, async (req, res) => {
    sendJson(res, 200, await embeddings.create(locals(res).context!, req.body));
  });
}
