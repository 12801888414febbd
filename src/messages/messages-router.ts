import type { DirectRoute } from '../http/direct-routes';
import type { HttpRequest, HttpResponse } from '../http/http-types';
import { modelCallRoute, type ModelCallDeps } from '../http/model-call-route';
import { locals } from '../http/request-locals';
import { sendJson } from '../http/send-json';
import { writeSse } from '../http/sse-writer';
import { ANTHROPIC_ERRORS, ANTHROPIC_SSE } from './anthropic-error-style';
import { COUNT_TOKENS_ENDPOINT, MESSAGES_ENDPOINT, type MessagesHeaders, type MessagesService } from './messages-service';

/**
 * Anthropic's Messages API at the gateway's root, for Anthropic's SDKs with
 * `baseURL` set to the gateway: `POST /v1/messages` (a Message, or its
 * events over SSE when `stream` is true) and `POST /v1/messages/count_tokens`.
 * The key comes as `x-api-key` or a bearer token; `anthropic-version` is
 * not required; every answer, refusals included, is in Anthropic's shape
 * and names the gateway's request id in `request-id` too.
 */
export function messagesRoutes(messages: MessagesService, deps: ModelCallDeps): DirectRoute[] {
  const dialect = { errorStyle: ANTHROPIC_ERRORS };
  return [
    modelCallRoute(MESSAGES_ENDPOINT, deps, async (req, res) => {
      const ctx = namedRequest(res);
      if (req.body && typeof req.body === 'object' && (req.body as { stream?: unknown }).stream === true) {
        await writeSse(res, await messages.stream(ctx, req.body, headersOf(req)), ctx.logger, ANTHROPIC_SSE);
      } else {
        sendJson(res, 200, await messages.create(ctx, req.body, headersOf(req)));
      }
    }, { ...dialect, limited: 'messages' }),
    modelCallRoute(COUNT_TOKENS_ENDPOINT, deps, async (req, res) => {
      const ctx = namedRequest(res);
      sendJson(res, 200, await messages.countTokens(ctx, req.body, headersOf(req)));
    }, { ...dialect, limited: 'count_tokens' }),
  ];
}

function namedRequest(res: HttpResponse) {
  const l = locals(res);
  res.setHeader('request-id', l.requestId);
  return l.context!;
}

function headersOf(req: HttpRequest): MessagesHeaders {
  return { betas: req.headers['anthropic-beta'] };
}
