import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { GatewayError, toEnvelope } from '../errors/gateway-error';
import { newRequestId, REQUEST_ID_HEADER } from './request-id';

/**
 * Node's `clientError`: a request Node itself refuses before any handler
 * sees it (headers too large, a request line it cannot parse, a request
 * that took too long to arrive). Answered like every other refusal: the
 * envelope with a request id, and the same id in `X-Svc-Request-Id`.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  // A response already under way on this connection (a pipelined request after it): no second status line into it.
  const answering = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (err.code === 'ECONNRESET' || !socket.writable || answering) {
    socket.destroy();
    return;
  }
  const refusal = refusalFor(err.code);
  const requestId = newRequestId(new Date());
  const body = JSON.stringify(toEnvelope(refusal, requestId));
  socket.end(
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `${REQUEST_ID_HEADER}: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

function refusalFor(code: string | undefined): GatewayError {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new GatewayError('request_header_fields_too_large', 'The request headers are larger than the gateway accepts (16 KB in all). Send fewer or smaller headers.');
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return new GatewayError('request_timeout', 'The request did not arrive in time. Send it again.');
  return new GatewayError('invalid_request', 'The request could not be read as HTTP/1.1. Check the request line and headers.');
}
