import type { Exchange, Route } from '../routing';
import { modelNotFound, sendOpenAIError } from './errors';
import { sendOpenAIJson } from './respond';

/**
 * `GET /v1/models` and `GET /v1/models/{id}`. The list shows the models a
 * demo would pick from; any other id is served too, as a permissive
 * OpenAI-compatible upstream does, except the one reserved for 404s.
 * @see https://platform.openai.com/docs/api-reference/models
 */

/** The one model id that does not exist, for tests of the gateway's handling of a 404. */
export const UNKNOWN_MODEL_ID = 'unknown-model';

/** When the listed models appeared, as Unix seconds; one date for all keeps the list stable. */
const LISTED_SINCE = 1_735_689_600;

const LISTED_MODELS = [
  'gpt-4.1',
  'gpt-4.1-mini',
  'gpt-4.1-nano',
  'gpt-4o',
  'gpt-4o-mini',
  'o1',
  'o3',
  'o3-mini',
  'o4-mini',
  'text-embedding-3-small',
  'text-embedding-3-large',
  'text-embedding-ada-002',
];

export function isUnknownModel(model: string): boolean {
  return model === UNKNOWN_MODEL_ID;
}

export const modelRoutes: Route[] = [
  { method: 'GET', path: /^\/v1\/models$/, handle: listModels },
  { method: 'GET', path: /^\/v1\/models\/([^/]+)$/, handle: retrieveModel },
];

async function listModels({ res }: Exchange): Promise<void> {
  sendOpenAIJson(res, 200, { object: 'list', data: LISTED_MODELS.map(modelObject) });
}

async function retrieveModel({ res, params }: Exchange): Promise<void> {
  const id = decodeURIComponent(params[0] ?? '');
  if (isUnknownModel(id)) return sendOpenAIError(res, modelNotFound(id));
  sendOpenAIJson(res, 200, modelObject(id));
}

function modelObject(id: string): object {
  return { id, object: 'model', created: LISTED_SINCE, owned_by: 'system' };
}
