import type { ResolvedProvider } from '../resolved-provider';
import { readBodyText, sendUpstream, toUpstreamError } from '../http-client';
import { parseJsonOrUndefined } from '../parse-json';
import { UpstreamError } from '../upstream-error';
import type { ProviderUsage } from '../usage';
import { openAIErrorFromResponse } from './openai-errors';
import { convertOpenAIUsage } from './openai-usage';

export interface EmbeddingsResult {
  /** The upstream's answer, in the OpenAI shape (vectors as floats or base64, as asked). */
  body: { object: string; data: unknown[]; model: string; usage?: Record<string, unknown> };
  usage: ProviderUsage | null;
}

/**
 * OpenAI embeddings, and any upstream that speaks them. The vectors pass
 * through untouched: the client's `encoding_format` (the Node SDK asks for
 * base64 by default) is the upstream's to honour.
 * @see https://platform.openai.com/docs/api-reference/embeddings/create
 */
export async function createOpenAIEmbeddings(provider: ResolvedProvider, body: Record<string, unknown>, signal: AbortSignal): Promise<EmbeddingsResult> {
  const res = await sendUpstream({
    url: `${provider.baseUrl}/embeddings`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${provider.apiKey}`, ...provider.headers },
    body: JSON.stringify(body),
    signal,
    timeoutMs: provider.timeoutMs,
  });
  const text = await readBodyText(res.body).catch((err) => {
    throw toUpstreamError(err, signal);
  });
  if (res.status >= 400) throw openAIErrorFromResponse(res.status, res.headers, text);
  const parsed = parseJsonOrUndefined(text) as EmbeddingsResult['body'] | undefined;
  if (!parsed || !Array.isArray(parsed.data)) throw new UpstreamError('the upstream answer does not have the OpenAI embeddings shape', { status: 502, retryable: true });
  return { body: parsed, usage: parsed.usage ? convertOpenAIUsage(parsed.usage as never, 'openai') : null };
}
