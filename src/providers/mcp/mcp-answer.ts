import type { UpstreamResponse } from '../http-client';
import { readBodyText, readSseEvents, releaseBody, toStreamReadError } from '../http-client';
import { parseJsonOrUndefined } from '../parse-json';
import { UpstreamError } from '../upstream-error';
import { jsonRpcAnswerSchema, type JsonRpcAnswer } from './mcp-wire';

/** The most of one answer read from an upstream MCP server. */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * The answer to request `id` in an upstream's response to a POST: the body
 * itself (`application/json`), or the message with that id among the events
 * of an SSE stream (`text/event-stream`), where the server may first send
 * notifications and requests of its own, which are skipped.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#sending-messages-to-the-server
 */
export async function readAnswer(res: UpstreamResponse, id: number, server: string, signal: AbortSignal): Promise<JsonRpcAnswer> {
  const type = String(res.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'text/event-stream') return answerInStream(res, id, server, signal);
  const text = await readBodyText(res.body, MAX_ANSWER_BYTES).catch((err) => { throw toStreamReadError(err, signal); });
  return asAnswer(parseJsonOrUndefined(text), id, server) ?? malformed(server, 'its answer is not the JSON-RPC response to the request');
}

async function answerInStream(res: UpstreamResponse, id: number, server: string, signal: AbortSignal): Promise<JsonRpcAnswer> {
  let found: JsonRpcAnswer | undefined;
  let size = 0;
  try {
    for await (const event of readSseEvents(res.body)) {
      size += event.data.length;
      if (size > MAX_ANSWER_BYTES) throw new UpstreamError(`MCP server "${server}" streamed more than ${MAX_ANSWER_BYTES} bytes`, { status: 502, retryable: false });
      if (event.event !== undefined && event.event !== 'message') continue;
      found = asAnswer(parseJsonOrUndefined(event.data), id, server);
      if (found) break;
    }
  } catch (err) {
    releaseBody(res.body, false);
    throw toStreamReadError(err, signal);
  }
  // The stream may stay open for other messages: the answer is all that is wanted of it.
  releaseBody(res.body, false);
  return found ?? malformed(server, 'its event stream ended without the answer');
}

function asAnswer(message: unknown, id: number, server: string): JsonRpcAnswer | undefined {
  if (typeof message !== 'object' || message === null || (message as { id?: unknown }).id !== id) return undefined;
  const parsed = jsonRpcAnswerSchema.safeParse(message);
  return parsed.success ? parsed.data : malformed(server, 'its answer is not a JSON-RPC result or error');
}

function malformed(server: string, what: string): never {
  throw new UpstreamError(`MCP server "${server}" answered malformed: ${what}`, { status: 502, retryable: false, cause: 'malformed_answer' });
}
