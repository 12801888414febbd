import type { z } from 'zod';
import { type UpstreamRequest, type UpstreamResponse, readBodyText, sendUpstream, toUpstreamError } from './http-client';
import { openAIErrorFromResponse } from './openai/openai-errors';
import { UpstreamError } from './upstream-error';
import { parseJsonOrUndefined } from './parse-json';

/**
 * Calls whose answer is one small JSON document, with errors in OpenAI's
 * envelope: the OpenAI Videos API, and xAI's, whose envelope is assumed to
 * be OpenAI's.
 */
export interface UpstreamText {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Status and error answers are small; anything bigger is not one of them. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** Sends the request and reads the whole answer; an HTTP error becomes an UpstreamError carrying its Retry-After. */
export async function sendForText(request: UpstreamRequest): Promise<UpstreamText> {
  const res = await sendUpstream(request);
  await throwIfErrorAnswer(res, request.signal);
  return { status: res.status, headers: res.headers, text: await readAnswerText(res, request.signal) };
}

/** For answers passed through as a stream: an error answer is read and thrown, a success is left unread. */
export async function throwIfErrorAnswer(res: UpstreamResponse, signal: AbortSignal): Promise<void> {
  if (res.status >= 400) throw openAIErrorFromResponse(res.status, res.headers, await readAnswerText(res, signal));
}

function readAnswerText(res: UpstreamResponse, signal: AbortSignal): Promise<string> {
  return readBodyText(res.body, MAX_ANSWER_BYTES).catch((err) => {
    throw toUpstreamError(err, signal);
  });
}

/**
 * Parses an answer through its wire schema, so a changed upstream fails at
 * the border. `retryable` says whether asking again is safe: a poll is, a
 * submission is not, as the upstream may already have started the job.
 */
export function parseUpstreamJson<T>(schema: z.ZodType<T>, text: string, what: string, retryable: boolean): T {
  const parsed = schema.safeParse(parseJsonOrUndefined(text));
  if (parsed.success) return parsed.data;
  throw new UpstreamError(`the upstream answer is not ${what}: ${parsed.error.message.slice(0, 300)}`, { status: 502, retryable });
}
