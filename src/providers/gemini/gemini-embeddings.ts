import { z } from 'zod';
import { readBodyText, sendUpstream, toUpstreamError } from '../http-client';
import { parseJsonOrUndefined } from '../parse-json';
import type { ResolvedProvider } from '../resolved-provider';
import { geminiErrorFromResponse, malformedGeminiAnswer } from './gemini-errors';
import type { UpstreamScope } from '../http-client';

/** batchEmbedContents takes at most this many requests per call. */
export const GEMINI_EMBED_BATCH = 100;

const batchAnswerSchema = z.looseObject({
  embeddings: z.array(z.looseObject({ values: z.array(z.number()) })),
});

export interface GeminiEmbedCall extends UpstreamScope {
  provider: ResolvedProvider;
  upstreamModel: string;
  texts: string[];
  /** `outputDimensionality`: the leading part of each vector. */
  dimensions?: number;
  hints?: GeminiEmbedHints;
}

/** What a client of Gemini's own dialect may add: `taskType` for the whole call, and each text's `title` (a document's, with RETRIEVAL_DOCUMENT). */
export interface GeminiEmbedHints {
  taskType?: string;
  titles?: Array<string | undefined>;
}

/**
 * Gemini embeddings through `batchEmbedContents` (what js-genai calls even
 * for one text): the texts go in batches of at most 100, one call after
 * another, and the vectors come back in the texts' order. Gemini reports no
 * token usage for embeddings; the caller counts the input locally.
 * @see https://ai.google.dev/api/embeddings#method:-models.batchembedcontents
 */
export async function createGeminiEmbeddings(call: GeminiEmbedCall): Promise<number[][]> {
  const model = call.upstreamModel.replace(/^models\//, '');
  const vectors: number[][] = [];
  for (let start = 0; start < call.texts.length; start += GEMINI_EMBED_BATCH) {
    const texts = call.texts.slice(start, start + GEMINI_EMBED_BATCH);
    const requests = texts.map((text, i) => {
      const title = call.hints?.titles?.[start + i];
      return {
        model: `models/${model}`,
        content: { parts: [{ text }] },
        ...(call.hints?.taskType ? { taskType: call.hints.taskType } : {}),
        ...(title !== undefined ? { title } : {}),
        ...(call.dimensions ? { outputDimensionality: call.dimensions } : {}),
      };
    });
    const res = await sendUpstream({
      url: `${call.provider.baseUrl}/models/${encodeURIComponent(model)}:batchEmbedContents`,
      headers: { 'content-type': 'application/json', 'x-goog-api-key': call.provider.apiKey, ...call.provider.headers },
      body: JSON.stringify({ requests }),
      signal: call.signal,
      span: call.span,
      timeoutMs: call.provider.timeoutMs,
    });
    const text = await readBodyText(res.body).catch((err) => {
      throw toUpstreamError(err, call.signal);
    });
    if (res.status >= 400) throw geminiErrorFromResponse(res.status, res.headers, text);
    const parsed = batchAnswerSchema.safeParse(parseJsonOrUndefined(text));
    if (!parsed.success) throw malformedGeminiAnswer('it does not have the batchEmbedContents shape');
    if (parsed.data.embeddings.length !== texts.length) {
      throw malformedGeminiAnswer(`it holds ${parsed.data.embeddings.length} embeddings for ${texts.length} texts`);
    }
    for (const embedding of parsed.data.embeddings) vectors.push(embedding.values);
  }
  return vectors;
}
