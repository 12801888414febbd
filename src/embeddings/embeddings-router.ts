import type { UsageRecorder } from '../billing/usage-recorder';
import type { DirectRoute } from '../http/direct-routes';
import type { Middleware } from '../http/http-types';
import { modelCallContext } from '../http/model-call-context';
import { locals } from '../http/request-locals';
import { sendJson } from '../http/send-json';
import type { Logger } from '../observability/logger';
import { EMBEDDINGS_ENDPOINT, type EmbeddingsService } from './embeddings-service';

export function embeddingsRoute(embeddings: EmbeddingsService, recorder: UsageRecorder, logger: Logger, jsonBody: Middleware): DirectRoute {
  return {
    path: EMBEDDINGS_ENDPOINT,
    methods: {
      POST: [
        modelCallContext(EMBEDDINGS_ENDPOINT, recorder, logger),
        jsonBody,
        async (req, res) => {
          sendJson(res, 200, await embeddings.create(locals(res).context!, req.body));
        },
      ],
    },
  };
}
