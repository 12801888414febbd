import type { SimulatorContext } from '../context';
import type { Exchange, Route } from '../routing';
import { requireBearerKey } from './auth';
import { handleChatCompletions } from './chat-completions';
import { handleEmbeddings } from './embeddings';
import { invalidUrl, sendOpenAIError } from './errors';
import { modelRoutes } from './models';
import { handleResponses } from './responses';

/** The OpenAI API under `/v1`, every route behind a bearer key as on api.openai.com. */
export function openaiRoutes(context: SimulatorContext): Route[] {
  const routes: Route[] = [
    { method: 'POST', path: /^\/v1\/chat\/completions$/, handle: (exchange) => handleChatCompletions(context, exchange) },
    { method: 'POST', path: /^\/v1\/responses$/, handle: (exchange) => handleResponses(context, exchange) },
    { method: 'POST', path: /^\/v1\/embeddings$/, handle: (exchange) => handleEmbeddings(context, exchange) },
    ...modelRoutes,
  ];
  return routes.map(requireBearerKey);
}

/** The answer api.openai.com gives to a method and path it does not serve. */
export async function openaiUnknownUrl({ req, res, path }: Exchange): Promise<void> {
  sendOpenAIError(res, invalidUrl(req.method ?? 'GET', path));
}
