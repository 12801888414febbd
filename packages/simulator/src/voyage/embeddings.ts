import type { ServerResponse } from 'node:http';
import type { SimulatorContext } from '../context';
import { protocolDirectiveGate } from '../directive-gate';
import { parseDirectives } from '../directives';
import { embeddingVector } from '../embedding-vector';
import { hasBearerKey } from '../openai/auth';
import { isUnknownModel } from '../openai/models';
import { jsonObjectBody } from '../request-body';
import type { Exchange, Route } from '../routing';
import { sendJson } from '../send';
import { countTextTokens } from '../token-count';

/** The lengths each Voyage model gives (`output_dimension`), its default first. */
const MODEL_DIMENSIONS: { [model: string]: number[] } = {
  'voyage-3.5': [1024, 256, 512, 2048],
  'voyage-3.5-lite': [1024, 256, 512, 2048],
  'voyage-3-large': [1024, 256, 512, 2048],
  'voyage-code-3': [1024, 256, 512, 2048],
};
const OTHER_MODEL_DIMENSIONS = [1024];
const MAX_INPUTS = 1000;

/** Voyage's error shape: `{"detail": "..."}` with the HTTP status. */
function sendVoyageError(res: ServerResponse, status: number, detail: string, retryAfterSeconds?: number): void {
  sendJson(res, status, { detail }, retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) });
}

const passVoyageDirectiveGate = protocolDirectiveGate((res, failure) => sendVoyageError(res, failure.status, `Simulated failure (${failure.status}).`, failure.retryAfterSeconds));

/**
 * Voyage AI's `POST /v1/embeddings` (served under `/voyage/v1`): texts in,
 * one unit vector each in input order, `output_dimension` among the model's
 * lengths, and `usage.total_tokens` only. Any non-empty bearer key passes.
 * @see https://docs.voyageai.com/reference/embeddings-api
 */
export function voyageRoutes(context: SimulatorContext): Route[] {
  return [{ method: 'POST', path: /^\/voyage\/v1\/embeddings$/, handle: (exchange) => handleVoyageEmbeddings(context, exchange) }];
}

async function handleVoyageEmbeddings(context: SimulatorContext, exchange: Exchange): Promise<void> {
  const { res } = exchange;
  if (!hasBearerKey(exchange.req)) return sendVoyageError(res, 401, 'Provided API key is invalid.');
  const body = jsonObjectBody(exchange.body, { invalidJson: () => 'Request body is not valid JSON.', tooLarge: () => 'Request body is too large.' });
  if (!body.ok) return sendVoyageError(res, 400, body.error);
  const request = body.value as { input?: unknown; model?: unknown; output_dimension?: unknown };
  const inputs = typeof request.input === 'string' ? [request.input] : request.input;
  if (!Array.isArray(inputs) || inputs.length === 0 || inputs.some((t) => typeof t !== 'string' || t === '')) {
    return sendVoyageError(res, 400, 'Request to model failed: "input" must be a non-empty string or a list of non-empty strings.');
  }
  if (inputs.length > MAX_INPUTS) return sendVoyageError(res, 400, `The batch size limit is ${MAX_INPUTS}. Your batch size is ${inputs.length}.`);
  if (typeof request.model !== 'string' || isUnknownModel(request.model)) return sendVoyageError(res, 400, `Model ${String(request.model)} is not supported.`);
  const lengths = MODEL_DIMENSIONS[request.model] ?? OTHER_MODEL_DIMENSIONS;
  const wanted = request.output_dimension ?? lengths[0];
  if (typeof wanted !== 'number' || !lengths.includes(wanted)) {
    return sendVoyageError(res, 400, `Value ${String(wanted)} is not supported for output_dimension for ${request.model}; use one of ${[...lengths].sort((a, b) => a - b).join(', ')}.`);
  }
  const texts = inputs as string[];
  const directiveText = texts.join('\n');
  const parsed = parseDirectives(directiveText);
  if (!parsed.ok) return sendVoyageError(res, 400, parsed.message);
  if (!(await passVoyageDirectiveGate(context, exchange, parsed.directives, directiveText, request.model))) return;
  const data = texts.map((text, index) => ({ object: 'embedding', embedding: Array.from(embeddingVector(`${request.model}\n${wanted}\n${text}`, wanted)), index }));
  const tokens = texts.reduce((sum, text) => sum + countTextTokens(text), 0);
  sendJson(res, 200, { object: 'list', data, model: request.model, usage: { total_tokens: tokens } });
}
