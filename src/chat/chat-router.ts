import type { DirectRoute } from '../http/direct-routes';
import { modelCallRoute, type ModelCallDeps } from '../http/model-call-route';
import { locals } from '../http/request-locals';
import { sendJson } from '../http/send-json';
import { writeSse } from '../http/sse-writer';
import { CHAT_ENDPOINT, type ChatService } from './chat-service';

export function chatRoute(chat: ChatService, deps: ModelCallDeps): DirectRoute {
  return modelCallRoute(CHAT_ENDPOINT, deps, async (req, res) => {
    const ctx = locals(res).context!;
    if (req.body && typeof req.body === 'object' && (req.body as { stream?: unknown }).stream === true) {
      await writeSse(res, await chat.stream(ctx, req.body), ctx.logger);
    } else {
      sendJson(res, 200, await chat.complete(ctx, req.body));
    }
  });
}
