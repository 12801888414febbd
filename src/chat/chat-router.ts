import type { UsageRecorder } from '../billing/usage-recorder';
import type { DirectRoute } from '../http/direct-routes';
import type { Middleware } from '../http/http-types';
import { modelCallContext } from '../http/model-call-context';
import { locals } from '../http/request-locals';
import { sendJson } from '../http/send-json';
import { writeSse } from '../http/sse-writer';
import type { Logger } from '../observability/logger';
import { CHAT_ENDPOINT, type ChatService } from './chat-service';

export function chatRoute(chat: ChatService, recorder: UsageRecorder, logger: Logger, jsonBody: Middleware): DirectRoute {
  return {
    path: CHAT_ENDPOINT,
    methods: {
      POST: [
        modelCallContext(CHAT_ENDPOINT, recorder, logger),
        jsonBody,
        async (req, res) => {
          const ctx = locals(res).context!;
          if (req.body && typeof req.body === 'object' && (req.body as { stream?: unknown }).stream === true) {
            await writeSse(res, await chat.stream(ctx, req.body), ctx.logger);
          } else {
            sendJson(res, 200, await chat.complete(ctx, req.body));
          }
        },
      ],
    },
  };
}
