import type { Catalog } from '../catalog/catalog';
import { Errors } from '../errors/errors';
import { GatewayError } from '../errors/gateway-error';
import type { DirectRoute } from '../http/direct-routes';
import type { HttpRequest, HttpResponse } from '../http/http-types';
import { modelCallRoute, type ModelCallDeps } from '../http/model-call-route';
import { locals } from '../http/request-locals';
import { sendJson } from '../http/send-json';
import { writeSse } from '../http/sse-writer';
import { findGeminiModel, listGeminiModels } from './gemini-model-listing';
import { GEMINI_MODELS_PATH, geminiCallOf, modelCallOf, modelPathOf } from './gemini-method-path';
import type { GenerateContentService } from './generate-content-service';
import { GEMINI_SSE, GOOGLE_RPC_ERRORS } from './google-rpc-status';

/**
 * The Gemini API's paths, each error worded as `google.rpc.Status`:
 * `POST /v1beta/models/{model}:generateContent`, `:streamGenerateContent`
 * (`?alt=sse`; the JSON-array stream without it is refused with a 400 that
 * says to add it, which every Google client does), `:countTokens`,
 * `:embedContent` and `:batchEmbedContents`; and `GET /v1beta/models` and
 * `GET /v1beta/models/{model}`, the key's models in Gemini's `Model` shape.
 */
export function generateContentRoutes(service: GenerateContentService, catalog: Catalog, deps: ModelCallDeps): DirectRoute[] {
  const calls = modelCallRoute(`${GEMINI_MODELS_PATH}/`, deps, async (req, res) => {
    const ctx = locals(res).context!;
    const { model, method } = modelCallOf(req);
    switch (method) {
      case 'generateContent':
        return sendJson(res, 200, await service.generate(ctx, model, req.body));
      case 'streamGenerateContent':
        if (queryOf(req).get('alt') !== 'sse') {
          throw new GatewayError('invalid_parameter', 'streamGenerateContent is served as server-sent events only: add "?alt=sse" to the URL (the Google Gen AI SDK does).', { param: 'alt' });
        }
        return writeSse(res, await service.stream(ctx, model, req.body), ctx.logger, GEMINI_SSE);
      case 'countTokens':
        return sendJson(res, 200, await service.countTokens(ctx, model, req.body));
      case 'embedContent':
      case 'batchEmbedContents':
        return sendJson(res, 200, await service.embed(ctx, model, method, req.body));
    }
  }, { errorStyle: GOOGLE_RPC_ERRORS, callOf: geminiCallOf });
  calls.methods.GET = [
    (req: HttpRequest, res: HttpResponse) => {
      const { model, method } = modelPathOf(req);
      if (method !== undefined) throw Errors.methodNotAllowed('GET', `${GEMINI_MODELS_PATH}/{model}:${method}`, ['POST']);
      const found = findGeminiModel(catalog, locals(res).principal!, model);
      if (!found) throw Errors.modelNotFound(model);
      sendJson(res, 200, found);
    },
  ];
  const list: DirectRoute = {
    path: GEMINI_MODELS_PATH,
    errorStyle: GOOGLE_RPC_ERRORS,
    methods: { GET: [(_req: HttpRequest, res: HttpResponse) => sendJson(res, 200, { models: listGeminiModels(catalog, locals(res).principal!) })] },
  };
  return [calls, list];
}

function queryOf(req: HttpRequest): URLSearchParams {
  const url = req.url ?? '';
  const q = url.indexOf('?');
  return new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
}
