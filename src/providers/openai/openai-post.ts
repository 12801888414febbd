import { type UpstreamResponse, type UpstreamScope, sendUpstream } from '../http-client';
import type { ResolvedProvider } from '../resolved-provider';
import { streamJsonBody, type StreamedStrings } from '../streamed-json-body';

/**
 * A JSON POST to an endpoint of an OpenAI-style API, as every OpenAI
 * adapter sends it: under the provider's base URL, with its bearer key and
 * its configured headers, within its time-out. Resolves once the response
 * headers arrived; the body is left to read. A body holding placeholders of
 * `streamed` is sent as a stream, their text read while it goes.
 */
export function postOpenAIJson(provider: ResolvedProvider, path: string, body: unknown, stream: boolean, scope: UpstreamScope, streamed?: StreamedStrings): Promise<UpstreamResponse> {
  return sendUpstream({
    url: `${provider.baseUrl}${path}`,
    headers: {
      'content-type': 'application/json',
      accept: stream ? 'text/event-stream' : 'application/json',
      authorization: `Bearer ${provider.apiKey}`,
      ...provider.headers,
    },
    body: streamed?.size ? streamJsonBody(body, streamed) : JSON.stringify(body),
    signal: scope.signal,
    span: scope.span,
    timeoutMs: provider.timeoutMs,
  });
}
