import { estimateLocally } from '../billing/local-usage-estimate';
import { measuredFromProvider } from '../billing/measured-usage';
import type { MeasuredUsage } from '../billing/usage-record';
import type { RouteAttempt } from '../model-call/route-attempts';
import type { Deadline } from '../deadlines/deadline';
import { GatewayError } from '../errors/gateway-error';
import type { RequestContext } from '../model-call/request-context';
import type { ChatRequest } from '../providers/chat-request';
import type { ChatCompletion } from '../providers/chat-types';
import { chatAdapterFor } from '../providers/registry';
import { UpstreamError } from '../providers/upstream-error';

export interface StructuredAnswer {
  /** The message text: the JSON document the schema asked for. */
  content: string;
  /** `choices[0].logprobs` as the upstream sent it (OpenAI's shape), or null. */
  logprobs: unknown;
  usage: MeasuredUsage;
  completion: ChatCompletion;
}

/**
 * One structured-output call to a chat upstream on `candidate`'s route,
 * bounded by `deadline` (which ends with the client too: `ctx.signal` is
 * among its parents, or one of theirs). A missed deadline is the upstream's time-out (504,
 * not retried: the time is spent), never mistaken for the client leaving.
 * Usage is the provider's, or the gateway's count when it reported none.
 */
export async function completeStructured(ctx: RequestContext, { candidate, span }: RouteAttempt, request: ChatRequest, deadline: Deadline, what: string): Promise<StructuredAnswer> {
  const { route, model } = candidate;
  const adapter = chatAdapterFor(route.provider.type);
  if (!adapter) throw new GatewayError('provider_not_supported', `The ${route.provider.type} provider of "${model.id}" does not speak a chat protocol, which ${what} needs.`);
  let result;
  try {
    result = await adapter.complete({
      provider: route.provider, upstreamModel: route.upstreamModel, family: model.config.family, request, signal: deadline.signal, span,
    });
  } catch (err) {
    if (deadline.signal.aborted && !ctx.signal.aborted) throw new UpstreamError(`${what} did not answer in time`, { status: 0, retryable: false, cause: 'timeout' });
    throw err;
  }
  const choice = result.completion.choices[0];
  const content = typeof choice?.message.content === 'string' ? choice.message.content : '';
  const usage = result.usage ? measuredFromProvider(result.usage) : estimateLocally(request, content, route.provider.type);
  return { content, logprobs: choice?.logprobs ?? null, usage, completion: result.completion };
}
