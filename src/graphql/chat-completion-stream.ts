import { UsageTicket } from '../billing/usage-ticket';
import { Errors } from '../http/errors';
import { toGatewayError } from '../http/map-upstream-error';
import type { RequestContext } from '../http/request-context';
import { chatCompletionEvents } from './chat-completion-events';
import { chatRequestBody } from './chat-request-body';
import type { GraphqlContext } from './context';
import type { EndableStream } from './open-streams';
import type { ChatCompletionEvent } from './types/chat-completion-event';
import type { ChatCompletionInput } from './types/chat-completion-input';

/** The usage records' endpoint label for chat streamed over the subscription. */
export const CHAT_SUBSCRIPTION_ENDPOINT = '/graphql:chatCompletion';

/**
 * The chatCompletion subscription's source: the same chat service call as a
 * streamed POST /v1/chat/completions, with its own request id and usage
 * ticket, and an abort that reaches the upstream when the client leaves.
 */
export function openChatCompletionStream(ctx: GraphqlContext, input: ChatCompletionInput): Promise<AsyncIterableIterator<ChatCompletionEvent>> {
  const controller = new AbortController();
  const ticket = new UsageTicket(ctx.services.recorder, ctx.requestId, ctx.principal, CHAT_SUBSCRIPTION_ENDPOINT, ctx.createdAt, ctx.startedAt);
  const call: RequestContext = { requestId: ctx.requestId, principal: ctx.principal, signal: controller.signal, ticket, logger: ctx.logger };
  return ctx.openStreams.track(controller, startChatCompletion(ctx, call, input));
}

/**
 * A request refused before its stream (validation, unknown model, a key
 * without access, an upstream failing at once) throws its gateway error,
 * after its usage record is written, as REST's error handler does.
 */
async function startChatCompletion(ctx: GraphqlContext, call: RequestContext, input: ChatCompletionInput): Promise<EndableStream<ChatCompletionEvent>> {
  try {
    return chatCompletionEvents(await ctx.services.chat.stream(call, chatRequestBody(input)), ctx);
  } catch (err) {
    const gatewayError = toGatewayError(err);
    if (!call.ticket.isSettled) {
      await call.ticket
        .fail(gatewayError?.status ?? 500, gatewayError?.code ?? 'internal_error')
        .catch((e) => ctx.logger.error('usage record failed', { err: e }));
    }
    // Before the stream exists, graphql-ws cannot end the subscription: only a shutdown aborts it.
    if (call.signal.aborted) throw Errors.shuttingDown();
    throw gatewayError ?? err;
  }
}
