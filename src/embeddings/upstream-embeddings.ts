import type { CatalogRoute } from '../catalog/catalog';
import { Errors } from '../errors/errors';
import { GatewayError } from '../errors/gateway-error';
import { createGeminiEmbeddings, type GeminiEmbedHints } from '../providers/gemini/gemini-embeddings';
import { createOpenAIEmbeddings, type EmbeddingsResult } from '../providers/openai/openai-embeddings';
import { createVoyageEmbeddings } from '../providers/voyage/voyage-embeddings';
import type { UpstreamScope } from '../providers/http-client';
import type { EmbeddingsRequest } from './embeddings-request-schema';

/**
 * One embeddings call on a route, whatever its protocol, answered in the
 * OpenAI shape. An OpenAI-compatible upstream gets the request as it is
 * (its vectors in the encoding asked for pass through); Gemini
 * (batchEmbedContents) and Voyage get the texts, and the gateway writes
 * their vectors in the encoding asked for, base64 being what the openai SDK
 * asks for. Gemini's own hints (`taskType`, titles), from a client of its
 * dialect, reach Gemini routes only: other upstreams have no field for them.
 */
export async function embedOnRoute(route: CatalogRoute, req: EmbeddingsRequest, scope: UpstreamScope, gemini?: GeminiEmbedHints): Promise<EmbeddingsResult> {
  switch (route.provider.type) {
    case 'openai':
      return createOpenAIEmbeddings(route.provider, { ...req, model: route.upstreamModel }, scope);
    case 'gemini': {
      const vectors = await createGeminiEmbeddings({ provider: route.provider, upstreamModel: route.upstreamModel, texts: textsOf(req), dimensions: req.dimensions ?? undefined, hints: gemini, ...scope });
      return { body: openAIShape(vectors, req, route.upstreamModel), usage: null };
    }
    case 'voyage': {
      const { vectors, usage } = await createVoyageEmbeddings({ provider: route.provider, upstreamModel: route.upstreamModel, texts: textsOf(req), dimensions: req.dimensions ?? undefined, ...scope });
      return { body: openAIShape(vectors, req, route.upstreamModel), usage };
    }
    default:
      throw Errors.providerNotSupported(route.provider.type, 'embeddings');
  }
}

/** Vectors as OpenAI lists them, in the encoding the client asked for. */
function openAIShape(vectors: number[][], req: EmbeddingsRequest, model: string): EmbeddingsResult['body'] {
  const base64 = req.encoding_format === 'base64';
  return { object: 'list', data: vectors.map((vector, index) => ({ object: 'embedding', index, embedding: base64 ? float32Base64(vector) : vector })), model };
}

/** The texts of a request, for an upstream that takes text only (token ids are OpenAI's). */
function textsOf(req: EmbeddingsRequest): string[] {
  const inputs = typeof req.input === 'string' ? [req.input] : req.input;
  if (inputs.some((item) => typeof item !== 'string')) {
    throw new GatewayError('unsupported_parameter', `"input" holds token ids; the model "${req.model}" takes text only. Send the texts as strings.`, { param: 'input' });
  }
  return inputs as string[];
}

/** Packed little-endian IEEE-754 float32, base64: OpenAI's `encoding_format: "base64"`. */
export function float32Base64(vector: number[]): string {
  const bytes = Buffer.allocUnsafe(vector.length * 4);
  for (let i = 0; i < vector.length; i++) bytes.writeFloatLE(vector[i]!, i * 4);
  return bytes.toString('base64');
}
