import { Errors } from '../errors/errors';
import { ModelCallGate } from '../model-call/model-call-gate';
import type { RequestContext } from '../model-call/request-context';
import { toGatewayError } from '../model-call/to-gateway-error';
import { chatCompletionEvents } from './chat-completion-events';
import { chatRequestBody } from './chat-request-body';
import type { GraphqlContext } from './context';
import type { EndableStream } from './open-streams';
import type { ChatCompletionEvent } from './types/chat-completion-event';
import type { ChatCompletionInput } from './types/chat-completion-input';

/** The usage records' endpoint label for chat streamed over the subscription. */
export const CHAT_SUBSCRIPTION_ENDPOINT = '/graphql:chatCompletion';

/**
 * The chatCompletion subscription's source: the same model call and chat
 * service call as a streamed POST /v1/chat/completions, written as
 * subscription events instead of SSE chunks.
 */
export function openChatCompletionStream(ctx: GraphqlContext, input: ChatCompletionInput): Promise<AsyncIterableIterator<ChatCompletionEvent>> {
  const gate = new ModelCallGate({ recorder: ctx.services.recorder, logger: ctx.logger, rateLimits: ctx.services.rateLimits });
  const { context, abort } = gate.open({
    requestId: ctx.requestId, principal: ctx.principal, endpoint: CHAT_SUBSCRIPTION_ENDPOINT, createdAt: ctx.createdAt, startedAt: ctx.startedAt,
  });
  // The operation ending (the client unsubscribed or its socket went away) ends the call, its upstream request
  // included, even while that request is still waiting for its first byte.
  ctx.signal?.addEventListener('abort', () => abort.abort(), { once: true });
  return ctx.openStreams.track(abort, startChatCompletion(ctx, gate, context, input));
}

/**
 * A request refused before its stream (validation, unknown model, a key
 * without access, an upstream failing at once) throws its gateway error,
 * after its usage record is written, as REST's error handler does.
 */
async function startChatCompletion(ctx: GraphqlContext, gate: ModelCallGate, call: RequestContext, input: ChatCompletionInput): Promise<EndableStream<ChatCompletionEvent>> {
  try {
    const body = chatRequestBody(input);
    // The same limits as POST /v1/chat/completions (no headers to carry them here).
    const admission = await gate.admit(call, { endpoint: 'chat', model: input.model, body });
    if (admission.refusal) throw admission.refusal;
    return chatCompletionEvents(await ctx.services.chat.stream(call, body), ctx);
  } catch (err) {
    const refusal = await gate.refuse(call, err);
    // Aborted before the stream exists: the operation ended (no one hears this) or the gateway is shutting down.
    if (call.signal.aborted) throw Errors.shuttingDown();
    // A bug stays itself, for GraphQL's error formatting to report as internal.
    throw toGatewayError(err) ? refusal : err;
  }
}
