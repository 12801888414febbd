import { z } from 'zod';
import type { ResolvedProvider } from '../resolved-provider';
import { readBodyText, sendUpstream, toUpstreamError, type UpstreamScope } from '../http-client';
import { parseJsonOrUndefined } from '../parse-json';
import { UpstreamError } from '../upstream-error';
import type { ProviderUsage } from '../usage';
import { openAIErrorFromResponse } from './openai-errors';

/** Counts the usage record stores in integer columns: anything larger is not a count an upstream can mean. */
const MAX_TOKENS = 2_147_483_647;
const tokenCount = z.number().int().nonnegative().max(MAX_TOKENS);

/**
 * The embeddings answer, as far as the gateway reads it: loose, so the
 * vectors and any other field pass through; `usage` is read on its own
 * (below), so a bad usage does not cost the client its vectors.
 */
const embeddingsAnswerSchema = z.looseObject({
  object: z.string().default('list'),
  data: z.array(z.unknown()),
  model: z.string().default(''),
  usage: z.unknown().optional(),
});

/**
 * OpenAI embeddings usage: whole, non-negative token counts, as the chat
 * path reads them (`providers/openai/openai-api.ts`). Only `prompt_tokens`
 * is billed; the rest is kept as received.
 * @see https://platform.openai.com/docs/api-reference/embeddings/object
 */
const embeddingsUsageSchema = z.looseObject({
  prompt_tokens: tokenCount,
  total_tokens: tokenCount.nullish(),
});

export interface EmbeddingsResult {
  /** The upstream's answer, in the OpenAI shape (vectors as floats or base64, as asked). */
  body: { object: string; data: unknown[]; model: string; usage?: unknown };
  /** The upstream's usage, when it reported one of the documented shape; null otherwise (the caller estimates). */
  usage: ProviderUsage | null;
  /** Why the upstream's usage was not used, when it sent one that is not valid: for the logs. */
  usageProblem?: string;
}

/**
 * OpenAI embeddings, and any upstream that speaks them. The vectors pass
 * through untouched: the client's `encoding_format` (the Node SDK asks for
 * base64 by default) is the upstream's to honour.
 * @see https://platform.openai.com/docs/api-reference/embeddings/create
 */
export async function createOpenAIEmbeddings(provider: ResolvedProvider, body: Record<string, unknown>, scope: UpstreamScope): Promise<EmbeddingsResult> {
  const res = await sendUpstream({
    url: `${provider.baseUrl}/embeddings`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${provider.apiKey}`, ...provider.headers },
    body: JSON.stringify(body),
    signal: scope.signal,
    span: scope.span,
    timeoutMs: provider.timeoutMs,
  });
  const text = await readBodyText(res.body).catch((err) => {
    throw toUpstreamError(err, scope.signal);
  });
  if (res.status >= 400) throw openAIErrorFromResponse(res.status, res.headers, text);
  const parsed = embeddingsAnswerSchema.safeParse(parseJsonOrUndefined(text));
  if (!parsed.success) throw new UpstreamError('the upstream answer does not have the OpenAI embeddings shape', { status: 502, retryable: true });
  const answer = parsed.data;
  if (answer.usage === undefined || answer.usage === null) return { body: answer, usage: null };
  const usage = embeddingsUsageSchema.safeParse(answer.usage);
  if (!usage.success) {
    return { body: answer, usage: null, usageProblem: `the upstream usage is not valid: ${z.prettifyError(usage.error).slice(0, 300)}` };
  }
  const reported = usage.data;
  return {
    body: answer,
    usage: {
      inputTokens: reported.prompt_tokens, outputTokens: 0, reasoningTokens: 0, cacheReadTokens: 0, cacheWriteTokens: { ttl5m: 0, ttl1h: 0 },
      reportsCache: false, family: 'openai', raw: reported,
    },
  };
}
