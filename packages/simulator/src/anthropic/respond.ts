import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { randomAlphanumericId } from '../ids';
import { sendBody } from '../send';

/**
 * Every Anthropic response names itself with a `request-id` header
 * (`req_` + 24 alphanumerics), which error bodies repeat as `request_id`.
 * @see https://docs.anthropic.com/en/api/errors#request-id
 */
export function anthropicHeaders(): OutgoingHttpHeaders {
  return { 'request-id': randomAlphanumericId('req_', 24) };
}

export function requestIdFrom(headers: OutgoingHttpHeaders): string {
  return String(headers['request-id']);
}

export function sendAnthropicJson(res: ServerResponse, status: number, value: unknown, headers: OutgoingHttpHeaders = anthropicHeaders()): void {
  sendAnthropicJsonText(res, status, JSON.stringify(value), headers);
}

/** JSON already serialized, such as a recorded body, sent as it is. */
export function sendAnthropicJsonText(res: ServerResponse, status: number, json: string | Buffer, headers: OutgoingHttpHeaders = anthropicHeaders()): void {
  sendBody(res, status, { 'content-type': 'application/json', ...headers }, json);
}
