import { Router, type Request } from 'express';
import { pageLimit, type PageLimits } from '../db/page';
import { Errors } from '../errors/errors';
import { methodNotAllowed } from '../http/method-not-allowed';
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
      const q = query(req);
      readInclude(q);
      if (q.text('stream') !== undefined && q.text('stream') !== 'false') {
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
  const q = query(req);
  readInclude(q);
  const limit = pageLimit(q.text('limit'), INPUT_ITEMS_LIMIT, 'limit');
  const order = q.text('order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc') throw Errors.validation('order', 'must be "asc" or "desc".');
  return { limit, order, after: q.text('after') ?? null, before: q.text('before') ?? null };
}

function query(req: Request) {
  const q = req.query as Record<string, unknown>;
  return {
    raw: q,
    text(name: string): string | undefined {
      const value = q[name];
      if (value === undefined) return undefined;
      if (typeof value !== 'string') throw Errors.validation(name, 'must be given once.');
      return value;
    },
  };
}

/** `include` as `include[]=…` (the SDKs) or `include=…`, repeated or not; each value must be one OpenAI defines. */
function readInclude(q: ReturnType<typeof query>): void {
  for (const name of ['include', 'include[]']) {
    const value = q.raw[name];
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const included of values) {
      if (typeof included !== 'string' || !INCLUDABLE.has(included)) {
        throw Errors.validation('include', `asks for "${String(included).slice(0, 128)}"; include only ${[...INCLUDABLE].map((v) => `"${v}"`).join(', ')}.`);
      }
    }
  }
}
