import { Router, type RequestHandler } from 'express';
import type { UsageRecorder } from '../billing/usage-recorder';
import { methodNotAllowed } from '../http/method-not-allowed';
import { modelCallContext } from '../http/model-call-context';
import { locals } from '../http/request-locals';
import type { Logger } from '../observability/logger';
import { EMBEDDINGS_ENDPOINT, type EmbeddingsService } from './embeddings-service';

export function embeddingsRouter(embeddings: EmbeddingsService, recorder: UsageRecorder, logger: Logger, jsonBody: RequestHandler): Router {
  const router = Router();
  router
    .route(EMBEDDINGS_ENDPOINT)
    .post(modelCallContext(EMBEDDINGS_ENDPOINT, recorder, logger), jsonBody, async (req, res) => {
      res.json(await embeddings.create(locals(res).context!, req.body));
    })
    .all(methodNotAllowed(['POST']));
  return router;
}
