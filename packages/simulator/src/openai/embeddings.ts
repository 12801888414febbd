import type { SimulatorContext } from '../context';
import { parseDirectives } from '../directives';
import { embeddingVector, float32Base64 } from '../embedding-vector';
import type { Exchange } from '../routing';
import { countTextTokens } from '../token-count';
import { passOpenAIDirectiveGate } from './directive-gate';
import { type OpenAIError, badDirective, invalidParameter, missingModel, missingParameter, modelNotFound, sendOpenAIError } from './errors';
import { isUnknownModel } from './models';
import { openaiJsonBody } from './request-body';
import { sendOpenAIJson } from './respond';

/**
 * `POST /v1/embeddings`: one deterministic unit vector per input, in input
 * order, as floats or, as openai-node asks by default, as base64 float32.
 * Directives may be written in any text input.
 * @see https://platform.openai.com/docs/api-reference/embeddings
 */

const MODEL_DIMENSIONS: { [model: string]: number } = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};
const OTHER_MODEL_DIMENSIONS = 1024;

/** One input: a text, or a text already tokenized as token ids. */
type EmbeddingInput = string | number[];

interface EmbeddingRequest {
  model: string;
  inputs: EmbeddingInput[];
  dimensions: number;
  encodingFormat: 'float' | 'base64';
}

export async function handleEmbeddings(context: SimulatorContext, exchange: Exchange): Promise<void> {
  const { res } = exchange;
  const body = openaiJsonBody(exchange.body, context.options.maxBodyBytes);
  if (!body.ok) return sendOpenAIError(res, body.error);
  const validated = validateEmbeddingRequest(body.value);
  if (!validated.ok) return sendOpenAIError(res, validated.error);
  const { request } = validated;
  const directiveText = request.inputs.filter((input) => typeof input === 'string').join('\n');
  const parsed = parseDirectives(directiveText);
  if (!parsed.ok) return sendOpenAIError(res, badDirective(parsed.message));
  if (isUnknownModel(request.model)) return sendOpenAIError(res, modelNotFound(request.model));

  if (!(await passOpenAIDirectiveGate(context, exchange, parsed.directives, directiveText, request.model))) return;
  sendOpenAIJson(res, 200, embeddingsBody(request));
}

function embeddingsBody({ model, inputs, dimensions, encodingFormat }: EmbeddingRequest): object {
  const data = inputs.map((input, index) => {
    const vector = embeddingVector(`${model}\n${seedText(input)}`, dimensions);
    return { object: 'embedding', index, embedding: encodingFormat === 'base64' ? float32Base64(vector) : Array.from(vector) };
  });
  const tokens = inputs.reduce((sum, input) => sum + (typeof input === 'string' ? countTextTokens(input) : input.length), 0);
  return { object: 'list', data, model, usage: { prompt_tokens: tokens, total_tokens: tokens } };
}

function seedText(input: EmbeddingInput): string {
  return typeof input === 'string' ? input : input.join(',');
}

function validateEmbeddingRequest(body: object): { ok: true; request: EmbeddingRequest } | { ok: false; error: OpenAIError } {
  const fields: { model?: unknown; input?: unknown; encoding_format?: unknown; dimensions?: unknown } = body;
  if (typeof fields.model !== 'string' || fields.model === '') return { ok: false, error: missingModel() };
  if (fields.input === undefined) return { ok: false, error: missingParameter('input') };
  const inputs = normalizeInputs(fields.input);
  if (!inputs) {
    return { ok: false, error: invalidParameter('input', "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.") };
  }
  const format = fields.encoding_format ?? 'float';
  if (format !== 'float' && format !== 'base64') {
    return { ok: false, error: invalidParameter('encoding_format', "Invalid value for 'encoding_format': expected 'float' or 'base64'.") };
  }
  const dimensions = fields.dimensions ?? MODEL_DIMENSIONS[fields.model] ?? OTHER_MODEL_DIMENSIONS;
  if (typeof dimensions !== 'number' || !Number.isInteger(dimensions) || dimensions < 1) {
    return { ok: false, error: invalidParameter('dimensions', "Invalid value for 'dimensions': expected a positive integer.") };
  }
  return { ok: true, request: { model: fields.model, inputs, dimensions, encodingFormat: format } };
}

/** `input` is a text, a list of texts, a list of token ids, or a list of such lists; none may be empty. */
function normalizeInputs(input: unknown): EmbeddingInput[] | undefined {
  if (typeof input === 'string') return input === '' ? undefined : [input];
  if (!Array.isArray(input) || input.length === 0) return undefined;
  if (input.every(isTokenId)) return [input];
  const valid = input.every((item) => (typeof item === 'string' ? item !== '' : Array.isArray(item) && item.length > 0 && item.every(isTokenId)));
  return valid ? (input as EmbeddingInput[]) : undefined;
}

function isTokenId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
