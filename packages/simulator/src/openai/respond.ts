import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { randomHexId } from '../ids';
import { sendBody } from '../send';

/** Every OpenAI response names itself with an `x-request-id`, which gateways log and pass on. */
export function openaiHeaders(): OutgoingHttpHeaders {
  return { 'x-request-id': randomHexId('req_', 32) };
}

/**
 * JSON as api.openai.com writes it: indented by two spaces with a final
 * newline (see the recorded bodies in test/fixtures/recorded/openai-chat).
 */
export function sendOpenAIJson(res: ServerResponse, status: number, value: unknown, headers: OutgoingHttpHeaders = {}): void {
  sendOpenAIJsonText(res, status, JSON.stringify(value, null, 2) + '\n', headers);
}

/** JSON already serialized, such as a recorded body, sent as it is. */
export function sendOpenAIJsonText(res: ServerResponse, status: number, json: string | Buffer, headers: OutgoingHttpHeaders = {}): void {
  sendBody(res, status, { 'content-type': 'application/json', ...openaiHeaders(), ...headers }, json);
}
