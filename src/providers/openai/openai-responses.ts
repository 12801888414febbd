import type { z } from 'zod';
import { readBodyText, readSseEvents, releaseBody, toStreamReadError, toUpstreamError } from '../http-client';
import { parseJsonOrUndefined } from '../parse-json';
import type { ResolvedProvider } from '../resolved-provider';
import type { SseEvent } from '../sse-parser';
import { UpstreamError } from '../upstream-error';
import type { ProviderUsage } from '../usage';
import { openAIErrorFromResponse, openAIStreamCut, openAIStreamError } from './openai-errors';
import { postOpenAIJson } from './openai-post';
import { openAIResponseSchema, openAIResponsesEventSchema, openAIResponsesFinalEventSchema } from './openai-responses-api';
import { convertOpenAIResponsesUsage } from './openai-responses-usage';
import type { UpstreamScope } from '../http-client';
import type { StreamedStrings } from '../streamed-json-body';

/**
 * The OpenAI Responses API, spoken natively: the client's request goes up
 * as it is (under the upstream model name) and the answer comes back as it
 * is, the whole response object or every stream event in order, unknown
 * events included (the client's SDK skips what it does not know). Only what
 * the gateway needs is read out of it, at the border: the usage, and the
 * errors, which become UpstreamErrors as the chat adapter makes them.
 * @see https://platform.openai.com/docs/api-reference/responses/create
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */

export interface ResponsesCall extends UpstreamScope {
  provider: ResolvedProvider;
  upstreamModel: string;
  /** The client's request as the gateway forwards it; `model` and `stream` are the adapter's to set. */
  body: Record<string, unknown>;
  /** The large strings `body` holds placeholders for (files inlined by the gateway), read anew while each attempt sends the body. */
  streamed?: StreamedStrings;
}

export interface ResponsesResult {
  response: Record<string, unknown>;
  usage: ProviderUsage | null;
}

export type ResponsesStreamEvent =
  /** One upstream SSE event, passed through in order. */
  | { type: 'event'; name: string; data: Record<string, unknown> }
  /** The usage of `response.completed` (or `.incomplete`, `.failed`), once, just before that event. */
  | { type: 'usage'; usage: ProviderUsage };

const RESPONSES_PATH = '/responses';
/** Error answers are small; anything bigger is not one of them. */
const MAX_ERROR_BODY_BYTES = 1024 * 1024;
/** The events that end a stream with an answer; `response.failed` ends it with an error. */
const FINISHING_EVENTS = new Set(['response.completed', 'response.incomplete']);
const FAILED_EVENT = 'response.failed';
const ERROR_EVENT = 'error';
/** Not documented for the Responses API, but some proxies add it; it ends nothing by itself. */
const DONE_SENTINEL = '[DONE]';

export const openaiResponsesAdapter = {
  async create(call: ResponsesCall): Promise<ResponsesResult> {
    const res = await post(call, false);
    const text = await readBodyText(res.body).catch((err) => {
      throw toUpstreamError(err, call.signal);
    });
    if (res.status >= 400) throw openAIErrorFromResponse(res.status, res.headers, text);
    const json = parseJsonOrUndefined(text);
    const parsed = openAIResponseSchema.safeParse(json);
    if (!parsed.success) throw malformed('answer', parsed.error);
    const { usage } = parsed.data;
    return { response: json as Record<string, unknown>, usage: usage ? convertOpenAIResponsesUsage(usage) : null };
  },

  /** Resolves its first step only once the upstream accepted the call (HTTP 200 and headers), like the chat adapters' stream. */
  async *stream(call: ResponsesCall): AsyncGenerator<ResponsesStreamEvent> {
    const res = await post(call, true);
    if (res.status >= 400) {
      const text = await readBodyText(res.body, MAX_ERROR_BODY_BYTES).catch((err) => {
        throw toUpstreamError(err, call.signal);
      });
      throw openAIErrorFromResponse(res.status, res.headers, text);
    }
    let finished = false;
    try {
      for await (const sse of readSseEvents(res.body)) {
        if (sse.data === DONE_SENTINEL) break;
        const { name, data } = readEvent(sse);
        if (name === FAILED_EVENT) {
          const usage = finalUsage(data);
          if (usage) yield { type: 'usage', usage };
          throw openAIStreamError({ error: (data.response as { error?: unknown }).error ?? {} });
        }
        if (FINISHING_EVENTS.has(name)) {
          // Usage first, so that the caller can settle the bill before its client sees the end.
          const usage = finalUsage(data);
          if (usage) yield { type: 'usage', usage };
          yield { type: 'event', name, data };
          finished = true;
          break;
        }
        yield { type: 'event', name, data };
      }
    } catch (err) {
      throw toStreamReadError(err, call.signal);
    } finally {
      releaseBody(res.body, finished);
    }
    if (!finished && !call.signal.aborted) throw openAIStreamCut();
  },
};

function post(call: ResponsesCall, stream: boolean) {
  return postOpenAIJson(call.provider, RESPONSES_PATH, upstreamBody(call, stream), stream, call, call.streamed);
}

/** The client's request under the upstream model name; a whole answer is asked for without the stream's options. */
function upstreamBody(call: ResponsesCall, stream: boolean): Record<string, unknown> {
  const { stream: _stream, ...body } = call.body;
  if (stream) return { ...body, model: call.upstreamModel, stream: true };
  const { stream_options: _options, ...whole } = body;
  return { ...whole, model: call.upstreamModel };
}

/**
 * One event, its name from the SSE `event:` line (or, without one, from its
 * `type`); an `error` event, or an error envelope a proxy sent as data,
 * becomes the in-stream UpstreamError.
 */
function readEvent(sse: SseEvent): { name: string; data: Record<string, unknown> } {
  const json = parseJsonOrUndefined(sse.data);
  const parsed = openAIResponsesEventSchema.safeParse(json);
  if (!parsed.success) throw malformed('stream event', parsed.error);
  const data = json as Record<string, unknown>;
  const name = sse.event ?? parsed.data.type;
  if (typeof data.error === 'object' && data.error !== null) throw openAIStreamError(data);
  if (name === ERROR_EVENT || parsed.data.type === ERROR_EVENT) throw openAIStreamError({ error: data });
  return { name, data };
}

function finalUsage(data: Record<string, unknown>): ProviderUsage | undefined {
  const parsed = openAIResponsesFinalEventSchema.safeParse(data);
  if (!parsed.success) throw malformed(`${String(data.type)} event`, parsed.error);
  const { usage } = parsed.data.response;
  return usage ? convertOpenAIResponsesUsage(usage) : undefined;
}

/** Names the protocol and the fields that did not fit, never the upstream's values: the message may reach the client. */
function malformed(what: string, error: z.ZodError): UpstreamError {
  const fields = error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
  return new UpstreamError(`the upstream ${what} does not have the OpenAI Responses shape (${fields})`, { status: 502, retryable: true, cause: 'malformed_answer' });
}
