import { z } from 'zod';
import { GatewayError } from '../errors/gateway-error';
import { parseRequest } from '../errors/parse-request';
import type { GeminiEmbedHints } from '../providers/gemini/gemini-embeddings';

/** An embedding request's text: Gemini takes text parts only here. */
const embedContentSchema = z.strictObject({
  model: z.string().optional(),
  content: z.strictObject({ role: z.string().optional(), parts: z.array(z.strictObject({ text: z.string() })).min(1, 'must not be empty') }),
  taskType: z.string().optional(),
  title: z.string().optional(),
  outputDimensionality: z.number().int().positive().optional(),
});

const batchEmbedContentsSchema = z.strictObject({ requests: z.array(embedContentSchema).min(1, 'must hold at least one request').max(2048) });

/** What the embeddings service is asked: the texts, and the options Gemini upstreams take (taskType and title are hints other upstreams have no field for). */
export interface EmbedAsked {
  texts: string[];
  dimensions?: number;
  gemini: GeminiEmbedHints;
}


/**
 * `embedContent` (`{content, taskType?, title?, outputDimensionality?}`)
 * and `batchEmbedContents` (`{requests: [...]}`, each naming the model of
 * the path as `models/{model}`) as the texts and options of one embeddings
 * call. A batch shares one set of options, as the gateway's embeddings
 * calls do: a batch that mixes task types or dimensions is refused, naming
 * the first request that differs (titles are each document's own).
 * @see https://ai.google.dev/api/embeddings
 */
export function readEmbedRequest(raw: unknown, method: 'embedContent' | 'batchEmbedContents', model: string): EmbedAsked {
  const requests = method === 'embedContent' ? [parseRequest(embedContentSchema, raw)] : parseRequest(batchEmbedContentsSchema, raw).requests;
  const first = requests[0]!;
  for (const [index, request] of requests.entries()) {
    const prefix = method === 'embedContent' ? '' : `requests[${index}].`;
    const text = request.content.parts.map((part) => part.text).join('');
    if (!text) throw new GatewayError('invalid_parameter', `"${prefix}content.parts" holds no text.`, { param: `${prefix}content.parts` });
    if (method === 'batchEmbedContents' && request.model !== undefined && request.model.replace(/^models\//, '') !== model) {
      throw new GatewayError('invalid_parameter', `"${prefix}model" must be "models/${model}", the model of the path.`, { param: `${prefix}model` });
    }
    for (const field of ['outputDimensionality', 'taskType'] as const) {
      if (request[field] !== first[field]) {
        throw new GatewayError('invalid_parameter', `"${prefix}${field}" differs from the first request's; a batch takes one ${field} for all its requests.`, { param: `${prefix}${field}` });
      }
    }
  }
  return {
    texts: requests.map((request) => request.content.parts.map((part) => part.text).join('')),
    ...(first.outputDimensionality !== undefined ? { dimensions: first.outputDimensionality } : {}),
    gemini: {
      ...(first.taskType !== undefined ? { taskType: first.taskType } : {}),
      ...(requests.some((r) => r.title !== undefined) ? { titles: requests.map((r) => r.title) } : {}),
    },
  };
}
