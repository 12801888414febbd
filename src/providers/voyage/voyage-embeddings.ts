import { z } from 'zod';
import { readBodyText, sendUpstream, toUpstreamError } from '../http-client';
import { openAIErrorFromResponse } from '../openai/openai-errors';
import { parseJsonOrUndefined } from '../parse-json';
import type { ResolvedProvider } from '../resolved-provider';
import { UpstreamError } from '../upstream-error';
import type { ProviderUsage } from '../usage';
import type { UpstreamScope } from '../http-client';

/** Voyage takes at most this many texts per request. */
export const VOYAGE_EMBED_BATCH = 1000;

const answerSchema = z.looseObject({
  data: z.array(z.looseObject({ index: z.number().int().nonnegative(), embedding: z.array(z.number()) })),
  usage: z.looseObject({ total_tokens: z.number().int().nonnegative().max(2_147_483_647) }).optional(),
});

export interface VoyageEmbedCall extends UpstreamScope {
  provider: ResolvedProvider;
  upstreamModel: string;
  texts: string[];
  /** `output_dimension`: one of the lengths the model gives. */
  dimensions?: number;
}

/**
 * Voyage AI embeddings (`POST /v1/embeddings`, OpenAI-like but its own:
 * `output_dimension`, `input_type`, `usage.total_tokens` only). Texts go in
 * batches of at most 1,000; vectors are put back in the texts' order by their
 * `index`, whatever order they came in; floats are asked for, and the caller
 * writes the encoding its client wants. Error bodies (`{"detail": ...}`) are
 * read for their status like any OpenAI-style upstream's.
 * @see https://docs.voyageai.com/reference/embeddings-api
 */
export async function createVoyageEmbeddings(call: VoyageEmbedCall): Promise<{ vectors: number[][]; usage: ProviderUsage | null }> {
  const vectors: number[][] = [];
  let tokens = 0;
  let counted = true;
  for (let start = 0; start < call.texts.length; start += VOYAGE_EMBED_BATCH) {
    const texts = call.texts.slice(start, start + VOYAGE_EMBED_BATCH);
    const res = await sendUpstream({
      url: `${call.provider.baseUrl}/embeddings`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${call.provider.apiKey}`, ...call.provider.headers },
      body: JSON.stringify({ input: texts, model: call.upstreamModel, ...(call.dimensions ? { output_dimension: call.dimensions } : {}) }),
      signal: call.signal,
      span: call.span,
      timeoutMs: call.provider.timeoutMs,
    });
    const text = await readBodyText(res.body).catch((err) => {
      throw toUpstreamError(err, call.signal);
    });
    if (res.status >= 400) throw openAIErrorFromResponse(res.status, res.headers, text);
    const parsed = answerSchema.safeParse(parseJsonOrUndefined(text));
    if (!parsed.success) throw new UpstreamError('the upstream answer does not have the Voyage embeddings shape', { status: 502, retryable: true });
    const ordered: number[][] = new Array(texts.length);
    for (const item of parsed.data.data) if (item.index < texts.length) ordered[item.index] = item.embedding;
    if (ordered.filter(Boolean).length !== texts.length) {
      throw new UpstreamError(`the upstream answered ${parsed.data.data.length} embeddings for ${texts.length} texts`, { status: 502, retryable: true });
    }
    vectors.push(...ordered);
    if (parsed.data.usage) tokens += parsed.data.usage.total_tokens;
    else counted = false;
  }
  // A batch without its count: the whole request is counted by the gateway instead.
  if (!counted) return { vectors, usage: null };
  return {
    vectors,
    usage: { inputTokens: tokens, outputTokens: 0, reasoningTokens: 0, cacheReadTokens: 0, cacheWriteTokens: { ttl5m: 0, ttl1h: 0 }, reportsCache: false, family: 'voyage', raw: { total_tokens: tokens } },
  };
}
