import type { SimulatorContext } from '../context';
import { parseDirectives } from '../directives';
import { embeddingVector } from '../embedding-vector';
import { isUnknownModel } from '../openai/models';
import type { Exchange } from '../routing';
import { passGeminiDirectiveGate } from './directive-gate';
import { type GeminiError, badDirective, invalidArgument, modelNotFound, sendGeminiError } from './errors';
import { geminiJsonBody } from './request-body';
import { sendGeminiJson } from './respond';

/** The vector length of each Gemini embedding model; `outputDimensionality` takes a leading part of it. */
const EMBEDDING_DIMENSIONS: { [model: string]: number } = {
  'gemini-embedding-001': 3072,
  'text-embedding-004': 768,
  'embedding-001': 768,
};
const OTHER_MODEL_DIMENSIONS = 768;
/** batchEmbedContents takes at most this many requests. */
const MAX_BATCH = 100;

type EmbedMethod = 'embedContent' | 'batchEmbedContents';

interface EmbedRequest {
  text: string;
  dimensions: number | undefined;
}

/**
 * `POST /v1beta/models/{model}:embedContent` and `:batchEmbedContents`, as
 * the Gemini API answers them: one vector per request, in request order,
 * `{embedding: {values}}` or `{embeddings: [{values}]}`, no token usage.
 * Each batched request names its model, which must be the one in the URL.
 * Only the full-length vector is normalised; a shorter
 * `outputDimensionality` is its leading part, as the API documents.
 * Directives may be written in any text.
 * @see https://ai.google.dev/api/embeddings
 */
export async function handleEmbedContent(context: SimulatorContext, exchange: Exchange, model: string, method: EmbedMethod): Promise<void> {
  const { res } = exchange;
  const body = geminiJsonBody(exchange.body, context.options.maxBodyBytes);
  if (!body.ok) return sendGeminiError(res, body.error);
  // Models it does not know embed in 768 dimensions, as the other protocols answer any model; the one unknown model id is refused.
  if (isUnknownModel(model)) return sendGeminiError(res, modelNotFound(model, method));
  const full = EMBEDDING_DIMENSIONS[model] ?? OTHER_MODEL_DIMENSIONS;
  const value = body.value as Record<string, unknown>;
  const read = method === 'embedContent' ? readOne(value, full) : readBatch(value, model, full);
  if ('error' in read) return sendGeminiError(res, read.error);
  const directiveText = read.requests.map((r) => r.text).join('\n');
  const parsed = parseDirectives(directiveText);
  if (!parsed.ok) return sendGeminiError(res, badDirective(parsed.message));
  if (!(await passGeminiDirectiveGate(context, exchange, parsed.directives, directiveText, model))) return;
  const vectors = read.requests.map((r) => ({ values: Array.from(embeddingVector(`${model}\n${r.text}`, full).subarray(0, r.dimensions ?? full)) }));
  sendGeminiJson(res, 200, method === 'embedContent' ? { embedding: vectors[0] } : { embeddings: vectors });
}

function readBatch(body: Record<string, unknown>, model: string, full: number): { requests: EmbedRequest[] } | { error: GeminiError } {
  const requests = body.requests;
  if (!Array.isArray(requests) || requests.length === 0) return { error: invalidArgument('* BatchEmbedContentsRequest.requests: contents is not specified\n') };
  if (requests.length > MAX_BATCH) return { error: invalidArgument(`* BatchEmbedContentsRequest.requests: at most ${MAX_BATCH} requests can be in one batch\n`) };
  const read: EmbedRequest[] = [];
  for (const [index, request] of requests.entries()) {
    const named = (request as { model?: unknown } | null)?.model;
    if (named !== `models/${model}`) {
      return { error: invalidArgument(`* BatchEmbedContentsRequest.model: unexpected model name format\n* BatchEmbedContentsRequest.requests[${index}].model: model must be models/${model}\n`) };
    }
    const one = readOne(request as Record<string, unknown>, full);
    if ('error' in one) return one;
    read.push(...one.requests);
  }
  return { requests: read };
}

function readOne(body: Record<string, unknown> | null, full: number): { requests: EmbedRequest[] } | { error: GeminiError } {
  const parts = (body?.content as { parts?: unknown } | undefined)?.parts;
  if (!Array.isArray(parts) || parts.length === 0) return { error: invalidArgument('* EmbedContentRequest.content: contents is not specified\n') };
  const text = parts.map((p) => (typeof (p as { text?: unknown })?.text === 'string' ? (p as { text: string }).text : '')).join('');
  if (!text) return { error: invalidArgument('* EmbedContentRequest.content.parts: text is empty\n') };
  const dimensions = body?.outputDimensionality;
  if (dimensions !== undefined && (typeof dimensions !== 'number' || !Number.isInteger(dimensions) || dimensions < 1 || dimensions > full)) {
    return { error: invalidArgument(`* EmbedContentRequest.output_dimensionality: must be between 1 and ${full}\n`) };
  }
  return { requests: [{ text, dimensions: dimensions as number | undefined }] };
}
