import { z } from 'zod';
import { readBodyText, readSseEvents, releaseBody, sendUpstream, toStreamReadError, toUpstreamError, type UpstreamScope } from '../http-client';
import { parseJsonOrUndefined } from '../parse-json';
import type { ResolvedProvider } from '../resolved-provider';
import { UpstreamError } from '../upstream-error';
import type { ProviderUsage } from '../usage';
import { anthropicMessageSchema, type AnthropicUsageWire } from './anthropic-api';
import { ANTHROPIC_VERSION } from './anthropic-chat';
import { anthropicErrorFromResponse, malformedAnthropicAnswer } from './anthropic-errors';
import { parseAnthropicStreamEvent } from './anthropic-stream';
import { convertAnthropicUsage, mergeAnthropicUsage } from './convert-anthropic-usage';

/**
 * Anthropic's Messages API spoken natively: the client's request goes up as
 * the caller built it (under the route's upstream model) and the answer
 * comes back as it is, the whole message or every stream event in order,
 * `ping` and events newer than the gateway included (the client's SDK skips
 * what it does not know). Only what the gateway needs is read out of it, at
 * the border: the usage, the thinking text (for the reasoning share of the
 * bill when the upstream does not state it) and the errors, which become
 * UpstreamErrors as the chat adapter makes them.
 * @see https://docs.anthropic.com/en/api/messages
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 * @see https://docs.anthropic.com/en/api/messages-count-tokens
 */

export interface AnthropicMessagesCall extends UpstreamScope {
  provider: ResolvedProvider;
  upstreamModel: string;
  /** The request as the gateway forwards it; `model` and `stream` are the adapter's to set. */
  body: Record<string, unknown>;
  /** `anthropic-beta` values to send, already allowed by the caller. */
  betas: string[];
}

export interface AnthropicMessageResult {
  message: Record<string, unknown>;
  usage: ProviderUsage;
  /** The text of the message's thinking blocks. */
  thinkingText: string;
}

export type AnthropicMessagesStreamEvent =
  /** One upstream SSE event, passed through in order. */
  | { type: 'event'; name: string; data: Record<string, unknown> }
  /**
   * The stream's usage so far (message_start's, merged with each
   * message_delta's), just after the event that told it: `partial` until a
   * message_delta gave the output's count.
   */
  | { type: 'usage'; usage: ProviderUsage; partial: boolean };

/** Error answers are small; anything bigger is not one of them. */
const MAX_ERROR_BODY_BYTES = 1024 * 1024;

const countTokensAnswerSchema = z.looseObject({ input_tokens: z.number().int().nonnegative() });

export const anthropicMessagesNative = {
  async create(call: AnthropicMessagesCall): Promise<AnthropicMessageResult> {
    const res = await post(call, '/messages', { ...call.body, model: call.upstreamModel, stream: false });
    const text = await readBodyText(res.body).catch((err) => {
      throw toUpstreamError(err, call.signal);
    });
    if (res.status >= 400) throw anthropicErrorFromResponse(res.status, res.headers, text);
    const json = parseJsonOrUndefined(text);
    const parsed = anthropicMessageSchema.safeParse(json);
    if (!parsed.success) throw malformedAnthropicAnswer(parsed.error.message);
    const thinkingText = parsed.data.content.map((block) => (block.type === 'thinking' ? block.thinking : '')).join('');
    return { message: json as Record<string, unknown>, usage: convertAnthropicUsage(parsed.data.usage), thinkingText };
  },

  /** Resolves its first step only once the upstream accepted the call (HTTP 200 and headers), like the chat adapters' stream. */
  async *stream(call: AnthropicMessagesCall): AsyncGenerator<AnthropicMessagesStreamEvent> {
    const res = await post(call, '/messages', { ...call.body, model: call.upstreamModel, stream: true });
    if (res.status >= 400) throw anthropicErrorFromResponse(res.status, res.headers, await readErrorBody(res.body, call.signal));
    let usage: AnthropicUsageWire | undefined;
    let partial = true;
    let finished = false;
    try {
      for await (const sse of readSseEvents(res.body)) {
        const event = parseAnthropicStreamEvent(sse);
        const data = parseJsonOrUndefined(sse.data);
        // Not an event object (a proxy's keep-alive, say): nothing for the client.
        if (!data || typeof data !== 'object' || Array.isArray(data)) continue;
        yield { type: 'event', name: sse.event ?? String((data as { type?: unknown }).type), data: data as Record<string, unknown> };
        if (event?.type === 'message_start') {
          usage = event.message.usage;
          partial = true;
        } else if (event?.type === 'message_delta') {
          usage = mergeAnthropicUsage(usage ?? {}, event.usage);
          partial = false;
        } else if (event?.type === 'message_stop') {
          finished = true;
          break;
        } else continue;
        if (usage) yield { type: 'usage', usage: convertAnthropicUsage(usage), partial };
      }
    } catch (err) {
      throw toStreamReadError(err, call.signal);
    } finally {
      releaseBody(res.body, finished);
    }
    if (!finished && !call.signal.aborted) {
      throw new UpstreamError('the upstream stream ended before message_stop', { status: 502, retryable: true, cause: 'stream_cut' });
    }
  },

  /** The prompt's tokens (free at Anthropic). */
  async countTokens(call: AnthropicMessagesCall): Promise<number> {
    const res = await post(call, '/messages/count_tokens', { ...call.body, model: call.upstreamModel });
    const text = await readBodyText(res.body, MAX_ERROR_BODY_BYTES).catch((err) => {
      throw toUpstreamError(err, call.signal);
    });
    if (res.status >= 400) throw anthropicErrorFromResponse(res.status, res.headers, text);
    const parsed = countTokensAnswerSchema.safeParse(parseJsonOrUndefined(text));
    if (!parsed.success) throw malformedAnthropicAnswer(parsed.error.message);
    return parsed.data.input_tokens;
  },
};

function post(call: AnthropicMessagesCall, path: string, body: Record<string, unknown>) {
  return sendUpstream({
    url: `${call.provider.baseUrl}${path}`,
    headers: {
      'content-type': 'application/json',
      accept: body.stream === true ? 'text/event-stream' : 'application/json',
      'x-api-key': call.provider.apiKey,
      'anthropic-version': ANTHROPIC_VERSION,
      ...(call.betas.length ? { 'anthropic-beta': call.betas.join(',') } : {}),
      ...call.provider.headers,
    },
    body: JSON.stringify(body),
    signal: call.signal,
    span: call.span,
    timeoutMs: call.provider.timeoutMs,
  });
}

function readErrorBody(body: Parameters<typeof readBodyText>[0], signal: AbortSignal): Promise<string> {
  return readBodyText(body, MAX_ERROR_BODY_BYTES).catch((err) => {
    throw toUpstreamError(err, signal);
  });
}
