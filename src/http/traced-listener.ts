import type { RequestListener } from 'node:http';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { tracer, tracingOn } from '../observability/tracing';
import { requestPath, type HttpResponse } from './http-types';
import { locals } from './request-locals';

/**
 * One server span per request while traces are on: the client's
 * `traceparent` is continued, everything the request does (upstream
 * attempts, the usage record) runs inside it, and it ends when the response
 * does, named by the matched route, with the status and the gateway's
 * request id. While traces are off this is the listener itself.
 */
export function tracedListener(listener: RequestListener): RequestListener {
  if (!tracingOn()) return listener;
  return (req, res) => {
    const parent = propagation.extract(context.active(), req.headers);
    const span = tracer().startSpan(req.method ?? 'HTTP', {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': req.method ?? '', 'url.path': requestPath(req) },
    }, parent);
    res.once('close', () => {
      const l = locals(res as HttpResponse);
      const status = res.writableFinished ? res.statusCode : 499;
      span.updateName(`${req.method} ${l.route ?? requestPath(req)}`);
      span.setAttributes({ 'http.response.status_code': status, 'gateway.request_id': l.requestId ?? '', ...(l.route ? { 'http.route': l.route } : {}) });
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    const active = trace.setSpan(parent, span);
    // Body chunks and the end of a request arrive as events of the socket's own making: bound, their listeners run in the request's context too.
    context.bind(active, req);
    context.bind(active, res);
    context.with(active, () => listener(req, res));
  };
}
