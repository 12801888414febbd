import type { ChatAdapter, ChatCall, ChatResult, ChatStreamEvent } from '../chat-adapter';
import { readBodyText, readSseEvents, releaseBody, sendUpstream, toStreamReadError, toUpstreamError } from '../http-client';
import { UpstreamError } from '../upstream-error';
import { anthropicMessageSchema } from './anthropic-api';
import { anthropicErrorFromResponse, malformedAnthropicAnswer } from './anthropic-errors';
import { toAnthropicMessagesBody } from './anthropic-request';
import { answerToolName } from './anthropic-response-format';
import { AnthropicStreamConverter, parseAnthropicStreamEvent } from './anthropic-stream';
import { convertAnthropicMessage } from './convert-anthropic-message';
import { convertAnthropicUsage } from './convert-anthropic-usage';
import { parseJsonOrUndefined } from '../parse-json';

/**
 * Anthropic's Messages API (`POST {baseUrl}/messages`), answered in the
 * gateway's canonical OpenAI shapes.
 * @see https://docs.anthropic.com/en/api/messages
 * @see https://docs.anthropic.com/en/api/versioning
 */
export const ANTHROPIC_VERSION = '2023-06-01';

export const anthropicChatAdapter: ChatAdapter = {
  async complete(call: ChatCall): Promise<ChatResult> {
    const res = await post(call, false);
    const text = await readBodyText(res.body).catch((err) => {
      throw toUpstreamError(err, call.signal);
    });
    if (res.status >= 400) throw anthropicErrorFromResponse(res.status, res.headers, text);
    const parsed = anthropicMessageSchema.safeParse(parseJsonOrUndefined(text));
    if (!parsed.success) throw malformedAnthropicAnswer(parsed.error.message);
    const completion = convertAnthropicMessage(parsed.data, { answerTool: answerToolName(call.request) });
    return { completion, usage: convertAnthropicUsage(parsed.data.usage) };
  },

  async *stream(call: ChatCall): AsyncGenerator<ChatStreamEvent> {
    const res = await post(call, true);
    if (res.status >= 400) throw anthropicErrorFromResponse(res.status, res.headers, await readBodyText(res.body, 1024 * 1024));
    const converter = new AnthropicStreamConverter(Math.floor(Date.now() / 1000), answerToolName(call.request));
    try {
      for await (const sse of readSseEvents(res.body)) {
        const event = parseAnthropicStreamEvent(sse);
        if (event) yield* converter.accept(event);
      }
    } catch (err) {
      throw toStreamReadError(err, call.signal);
    } finally {
      releaseBody(res.body, converter.complete);
    }
    if (!converter.complete && !call.signal.aborted) {
      throw new UpstreamError('the upstream stream ended before message_stop', { status: 502, retryable: true, cause: 'stream_cut' });
    }
  },
};

function post(call: ChatCall, stream: boolean) {
  const body = toAnthropicMessagesBody(call.request, call.upstreamModel, stream);
  return sendUpstream({
    url: `${call.provider.baseUrl}/messages`,
    headers: {
      'content-type': 'application/json',
      accept: stream ? 'text/event-stream' : 'application/json',
      'x-api-key': call.provider.apiKey,
      'anthropic-version': ANTHROPIC_VERSION,
      ...call.provider.headers,
    },
    body: JSON.stringify(body),
    signal: call.signal,
    span: call.span,
    timeoutMs: call.provider.timeoutMs,
  });
}
