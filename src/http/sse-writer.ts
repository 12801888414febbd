import type { ServerResponse } from 'node:http';
import type { Logger } from '../observability/logger';
import { Errors } from '../errors/errors';
import { toEnvelope } from '../errors/gateway-error';
import { toGatewayError } from '../model-call/to-gateway-error';
import { locals } from './request-locals';

/**
 * Writes a stream of JSON objects as Server-Sent Events (`data: {...}`),
 * ending with `data: [DONE]`. Honours backpressure, and stops pulling from
 * the source as soon as the client goes away. An error after the stream has
 * started is sent as a final `data: {"error": ...}` event (what OpenAI's
 * clients expect) with no [DONE], so the client knows the answer is incomplete.
 */
export async function writeSse(res: ServerResponse, source: AsyncGenerator<object>, logger: Logger): Promise<void> {
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
      if (!res.write(`data: ${JSON.stringify(item)}\n\n`)) await drained(res);
    }
    if (!res.destroyed) res.end('data: [DONE]\n\n');
  } catch (err) {
    const gatewayError = toGatewayError(err);
    if (!gatewayError) logger.error('stream failed', { request_id: locals(res).requestId, err });
    if (!res.destroyed) res.end(`data: ${JSON.stringify(toEnvelope(gatewayError ?? Errors.internal(), locals(res).requestId))}\n\n`);
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
