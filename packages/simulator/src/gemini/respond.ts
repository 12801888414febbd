import type { ServerResponse } from 'node:http';
import { sendBody } from '../send';

/**
 * JSON as the Gemini API writes it: indented by two spaces, with a final
 * newline (see the recorded bodies in test/fixtures/recorded/gemini).
 */
export function sendGeminiJson(res: ServerResponse, status: number, value: unknown): void {
  sendGeminiJsonText(res, status, JSON.stringify(value, null, 2) + '\n');
}

/** JSON already serialized, such as a recorded body, sent as it is. */
export function sendGeminiJsonText(res: ServerResponse, status: number, json: string | Buffer): void {
  sendBody(res, status, { 'content-type': 'application/json; charset=UTF-8' }, json);
}
