import type { RequestListener, ServerResponse } from 'node:http';
import { SpanStatusCode, type Span } from '@opentelemetry/api';
import type { Tracing } from '../observability/tracing';
import { requestPath, type HttpResponse } from './http-types';
import { locals } from './request-locals';

/** Each request's server span, while traces are on. */
const spans = new WeakMap<ServerResponse, Span>();

/** The server span of the request this response answers; none while traces are off. */
export function requestSpan(res: ServerResponse): Span | undefined {
  return spans.get(res);
}

/**
 * One server span per request while the gateway's traces are on: the client's
 * `traceparent` is continued, and the span is handed on explicitly (the
 * request context, the usage ticket, the access log) to what the request
 * does (upstream attempts, the usage record). It ends when the response
 * does, named by the matched route, with the status and the gateway's
 * request id. While traces are off this is the listener itself.
 * A request the sampler drops gets no attribute and no close listener.
 */
export function tracedListener(listener: RequestListener, tracing: Tracing): RequestListener {
  if (!tracing.on) return listener;
  return (req, res) => {
    const span = tracing.serverSpan(req.method ?? 'HTTP', req.headers, {
      attributes: () => ({ 'http.request.method': req.method ?? '', 'url.path': requestPath(req) }),
    })!;
    spans.set(res, span);
    // A span the sampler dropped records nothing: it is kept only to carry the (unsampled) trace upstream and into log lines.
    if (span.isRecording()) res.once('close', () => {
      const l = locals(res as HttpResponse);
      const status = res.writableFinished ? res.statusCode : 499;
      span.updateName(`${req.method} ${l.route ?? requestPath(req)}`);
      span.setAttributes({ 'http.response.status_code': status, 'gateway.request_id': l.requestId ?? '', ...(l.route ? { 'http.route': l.route } : {}) });
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    listener(req, res);
  };
}
