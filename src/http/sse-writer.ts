import type { ServerResponse } from 'node:http';
import type { Logger } from '../observability/logger';
import { Errors } from '../errors/errors';
import { toEnvelope, type GatewayError } from '../errors/gateway-error';
import { toGatewayError } from '../model-call/to-gateway-error';
import { locals } from './request-locals';

/** How one API frames its events: chat completions send bare `data:` lines and `[DONE]`; Responses name each event. */
export interface SseStyle {
  frame(item: object): string;
  end: string;
  /** The last event of a stream that failed after it started. */
  error(err: GatewayError, requestId: string): string;
}

/** Chat completions: `data: {...}`, then `data: [DONE]`; an error is a last `data: {"error": ...}` with no [DONE]. */
export const CHAT_SSE: SseStyle = {
  frame: (item) => `data: ${JSON.stringify(item)}\n\n`,
  end: 'data: [DONE]\n\n',
  error: (err, requestId) => `data: ${JSON.stringify(toEnvelope(err, requestId))}\n\n`,
};

/**
 * Responses: `event: <type>` before each `data:` (the type is also in the
 * data), no end marker (`response.completed` is the end); an error is an
 * `error` event, which the official SDK raises as an APIError.
 */
export const RESPONSES_SSE: SseStyle = {
  frame: (item) => `event: ${(item as { type?: string }).type ?? 'message'}\ndata: ${JSON.stringify(item)}\n\n`,
  end: '',
  error: (err, requestId) => `event: error\ndata: ${JSON.stringify({ type: 'error', code: err.code, message: err.message, param: err.options.param ?? null, request_id: requestId })}\n\n`,
};

/**
 * Writes a stream of JSON objects as Server-Sent Events in an API's style.
 * Honours backpressure, and stops pulling from the source as soon as the
 * client goes away. An error after the stream has started is sent as a
 * final error event with no end marker, so the client knows the answer is
 * incomplete.
 */
export async function writeSse(res: ServerResponse, source: AsyncGenerator<object>, logger: Logger, style: SseStyle = CHAT_SSE): Promise<void> {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  // No separate flush: the headers leave with the first event, one write instead of two.
  try {
    for await (const item of source) {
      if (res.destroyed) break;
      if (!res.write(style.frame(item))) await drained(res);
    }
    if (!res.destroyed) res.end(style.end);
  } catch (err) {
    const gatewayError = toGatewayError(err);
    if (!gatewayError) logger.error('stream failed', { request_id: locals(res).requestId, err });
    if (!res.destroyed) res.end(style.error(gatewayError ?? Errors.internal(), locals(res).requestId));
  } finally {
    await source.return(undefined);
  }
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
