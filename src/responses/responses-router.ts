import type { DirectRoute } from '../http/direct-routes';
import { modelCallRoute, type ModelCallDeps } from '../http/model-call-route';
import { locals } from '../http/request-locals';
import { sendJson } from '../http/send-json';
import { RESPONSES_SSE, writeSse } from '../http/sse-writer';
import { RESPONSES_ENDPOINT, type ResponsesService } from './responses-service';

/** `POST /v1/responses`: a response object, or its events over SSE when `stream` is true. */
export function responsesRoute(responses: ResponsesService, deps: ModelCallDeps): DirectRoute {
  return modelCallRoute(RESPONSES_ENDPOINT, deps, async (req, res) => {
    const ctx = locals(res).context!;
    const streamed = req.body && typeof req.body === 'object' && (req.body as { stream?: unknown }).stream === true;
    const answer = streamed ? await responses.stream(ctx, req.body) : await responses.create(ctx, req.body);
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    if (streamed) await writeSse(res, answer.body as AsyncGenerator<object>, ctx.logger, RESPONSES_SSE);
    else sendJson(res, 200, answer.body);
  });
}
