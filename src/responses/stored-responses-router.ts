import { Router, type Request } from 'express';
import type { PageLimits } from '../db/page';
import { Errors } from '../errors/errors';
import { methodNotAllowed } from '../http/method-not-allowed';
import { listQuery, queryText } from '../http/list-query';
import { locals } from '../http/request-locals';
import type { InputItemsQuery } from './input-items-page';
import { RESPONSES_ENDPOINT } from './responses-service';
import type { StoredResponses } from './stored-responses';

/** `GET /v1/responses/{id}/input_items` pages: OpenAI's 1 to 100, 20 unless asked. */
export const INPUT_ITEMS_LIMIT: PageLimits = { default: 20, max: 100 };

/** What `include` may name on these routes (OpenAI's includables); the kept items are whole, so each is accepted as is. */
const INCLUDABLE = new Set([
  'file_search_call.results', 'web_search_call.results', 'web_search_call.action.sources', 'message.input_image.image_url',
  'computer_call_output.output.image_url', 'code_interpreter_call.outputs', 'reasoning.encrypted_content', 'message.output_text.logprobs',
]);

/**
 * OpenAI's routes onto stored responses: `GET /v1/responses/{id}`,
 * `DELETE /v1/responses/{id}` and `GET /v1/responses/{id}/input_items`, so
 * `client.responses.retrieve`, `.delete` and `.inputItems.list` of the
 * openai SDKs work unchanged. Each sees only the calling key's responses.
 * (`POST /v1/responses` itself is a model call, served before express.)
 */
export function storedResponsesRouter(stored: StoredResponses): Router {
  const router = Router();

  router
    .route(`${RESPONSES_ENDPOINT}/:id`)
    .get(async (req, res) => {
      readInclude(req.query as Record<string, unknown>);
      const stream = queryText(req.query, 'stream');
      if (stream !== undefined && stream !== 'false') {
        throw Errors.validation('stream', 'is not served: a stored response is complete; retrieve it without "stream".');
      }
      res.json(await stored.retrieve(locals(res).principal!, String(req.params.id)));
    })
    .delete(async (req, res) => {
      res.json(await stored.delete(locals(res).principal!, String(req.params.id)));
    })
    .all(methodNotAllowed(['GET', 'DELETE']));

  router
    .route(`${RESPONSES_ENDPOINT}/:id/input_items`)
    .get(async (req, res) => {
      const page = await stored.inputItems(locals(res).principal!, String(req.params.id), inputItemsQuery(req));
      const { data } = page;
      res.json({ object: 'list', data, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null, has_more: page.hasMore });
    })
    .all(methodNotAllowed(['GET']));

  return router;
}

/** OpenAI's list query (`limit`, `order`, `after`, `before`, `include`), each given at most once. */
function inputItemsQuery(req: Request): InputItemsQuery {
  readInclude(req.query as Record<string, unknown>);
  return listQuery(req.query, INPUT_ITEMS_LIMIT);
}

/** `include` as `include[]=…` (the SDKs) or `include=…`, repeated or not; each value must be one OpenAI defines. */
function readInclude(query: Record<string, unknown>): void {
  for (const name of ['include', 'include[]']) {
    const value = query[name];
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const included of values) {
      if (typeof included !== 'string' || !INCLUDABLE.has(included)) {
        throw Errors.validation('include', `asks for "${String(included).slice(0, 128)}"; include only ${[...INCLUDABLE].map((v) => `"${v}"`).join(', ')}.`);
      }
    }
  }
}
