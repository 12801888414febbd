import { pipeline } from 'node:stream/promises';
import { Router, type Request, type RequestHandler } from 'express';
import type { PageLimits } from '../db/page';
import { listQuery } from '../http/list-query';
import type { UsageRecorder } from '../billing/usage-recorder';
import { GatewayError } from '../errors/gateway-error';
import { methodNotAllowed } from '../http/method-not-allowed';
import { modelCallContext } from '../http/model-call-context';
import { isMultipart, readMultipart } from '../http/multipart';
import { locals } from '../http/request-locals';
import type { Logger } from '../observability/logger';
import { VIDEO_GENERATIONS_ENDPOINT, VIDEOS_ENDPOINT, type UploadedImage, type VideoListQuery, type VideoService } from './video-service';
import { openAITaskView, taskView } from './video-views';
import { idempotent } from '../http/idempotent';
import type { IdempotencyStore } from '../http/idempotency-store';
import { rateLimited } from '../http/rate-limited';
import type { RateLimits } from '../limits/rate-limits';
import { ModelCallGate } from '../model-call/model-call-gate';

const INPUT_REFERENCE_MAX_BYTES = 20 * 1024 * 1024;
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];
/** `GET /v1/videos` pages: OpenAI takes up to 100 per page; without `limit` the gateway answers 20. */
const LIST_LIMIT: PageLimits = { default: 20, max: 100 };

/**
 * `POST /v1/videos` (JSON, or multipart with an `input_reference` image),
 * `GET /v1/videos` (the key's videos, OpenAI's cursor page),
 * `POST /v1/videos/generations`, `GET` and `DELETE /v1/videos/{id}`,
 * `POST /v1/videos/{id}/remix`, `GET /v1/videos/{id}/content`.
 */
export function videosRouter(videos: VideoService, recorder: UsageRecorder, logger: Logger, jsonBody: RequestHandler, idempotency: IdempotencyStore, rateLimits?: RateLimits): Router {
  const router = Router();
  /** Submissions count against the request limits (a remix against the key's and the account's only). */
  const gate = new ModelCallGate({ recorder, logger, rateLimits });
  const limited = rateLimited(gate, 'videos') as RequestHandler;
  /** A retried submission with the same Idempotency-Key gets the first task back, charged once. */
  const retries = (endpoint: string) => idempotent(idempotency, endpoint, logger) as RequestHandler;
  const jsonUnlessMultipart: RequestHandler = (req, res, next) => (isMultipart(req) ? next() : jsonBody(req, res, next));

  router
    .route(VIDEOS_ENDPOINT)
    .post(modelCallContext(VIDEOS_ENDPOINT, gate), jsonUnlessMultipart, limited, retries(VIDEOS_ENDPOINT), async (req, res) => {
      const { body, image } = isMultipart(req) ? await multipartSubmission(req) : { body: req.body as unknown, image: undefined };
      const task = await videos.submit(locals(res).context!, body, VIDEOS_ENDPOINT, image);
      res.json(task.api === 'openai' ? taskView(task) : { request_id: task.id });
    })
    .get(async (req, res) => {
      const page = await videos.list(locals(res).principal!, videoListQuery(req));
      const data = page.items.map(openAITaskView);
      res.json({ object: 'list', data, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null, has_more: page.hasMore });
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route(VIDEO_GENERATIONS_ENDPOINT)
    .post(modelCallContext(VIDEO_GENERATIONS_ENDPOINT, gate), jsonBody, limited, retries(VIDEO_GENERATIONS_ENDPOINT), async (req, res) => {
      const task = await videos.submit(locals(res).context!, req.body, VIDEO_GENERATIONS_ENDPOINT);
      res.json({ request_id: task.id });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route(`${VIDEOS_ENDPOINT}/:id`)
    .get(async (req, res) => {
      res.json(taskView(await videos.get(locals(res).principal!, String(req.params.id))));
    })
    .delete(async (req, res) => {
      const abort = new AbortController();
      res.once('close', () => abort.abort());
      const id = String(req.params.id);
      await videos.delete(locals(res).principal!, id, abort.signal);
      res.json({ id, object: 'video.deleted', deleted: true });
    })
    .all(methodNotAllowed(['GET', 'DELETE']));

  router
    .route(`${VIDEOS_ENDPOINT}/:id/remix`)
    .post(modelCallContext(`${VIDEOS_ENDPOINT}/{id}/remix`, gate), jsonBody, limited, retries(`${VIDEOS_ENDPOINT}/{id}/remix`), async (req, res) => {
      res.json(taskView(await videos.remix(locals(res).context!, String(req.params.id), req.body)));
    })
    .all(methodNotAllowed(['POST']));

  router
    .route(`${VIDEOS_ENDPOINT}/:id/content`)
    .get(async (req, res) => {
      const abort = new AbortController();
      res.once('close', () => abort.abort());
      const variant = typeof req.query.variant === 'string' ? req.query.variant : 'video';
      const content = await videos.content(locals(res).principal!, String(req.params.id), variant, abort.signal);
      res.status(200);
      for (const name of ['content-type', 'content-length', 'content-disposition']) if (content.headers[name]) res.setHeader(name, content.headers[name]);
      // Streamed through: the video is never held in memory whole.
      await pipeline(content.body, res).catch(() => content.body.destroy());
    })
    .all(methodNotAllowed(['GET']));

  return router;
}

/** The list query of OpenAI's videos list (`limit`, `order`, `after`), each given at most once. */
function videoListQuery(req: Request): VideoListQuery {
  const { limit, order, after } = listQuery(req.query, LIST_LIMIT);
  return { limit, order, after };
}

async function multipartSubmission(req: Parameters<RequestHandler>[0]): Promise<{ body: Record<string, unknown>; image?: UploadedImage }> {
  const { fields, files } = await readMultipart(req, { fileFields: ['input_reference'], maxFileBytes: INPUT_REFERENCE_MAX_BYTES });
  const image = files.input_reference;
  if (image && !IMAGE_TYPES.includes(image.contentType)) {
    throw new GatewayError('invalid_parameter', `"input_reference" must be a PNG, JPEG or WebP image (got ${image.contentType}).`, { param: 'input_reference' });
  }
  return { body: fields, image };
}
