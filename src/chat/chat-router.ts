import express, { Router } from 'express';
import type { UsageRecorder } from '../billing/usage-recorder';
import { methodNotAllowed } from '../http/method-not-allowed';
import { modelCallContext } from '../http/model-call-context';
import { locals } from '../http/request-locals';
import { writeSse } from '../http/sse-writer';
import type { Logger } from '../observability/logger';
import { CHAT_ENDPOINT, type ChatService } from './chat-service';

export function chatRouter(chat: ChatService, recorder: UsageRecorder, logger: Logger, jsonBody: express.RequestHandler): Router {
  const router = Router();
  router
    .route(CHAT_ENDPOINT)
    .post(modelCallContext(CHAT_ENDPOINT, recorder, logger), jsonBody, async (req, res) => {
      const ctx = locals(res).context!;
      if (req.body && typeof req.body === 'object' && (req.body as { stream?: unknown }).stream === true) {
        await writeSse(res, await chat.stream(ctx, req.body), ctx.logger);
      } else {
        res.json(await chat.complete(ctx, req.body));
      }
    })
    .all(methodNotAllowed(['POST']));
  return router;
}
