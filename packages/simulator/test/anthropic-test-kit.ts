import { parseSse } from '../../../src/providers/sse-parser';
import type { SimulatorHandle } from '../src/server';

/** Talking to the simulator the way Anthropic's API is talked to: its headers, its body, its named events. */

export const ANTHROPIC_HEADERS = { 'content-type': 'application/json', 'x-api-key': 'sk-ant-test-key', 'anthropic-version': '2023-06-01' };

export const MODEL = 'claude-sonnet-4-5';

export interface MessagesBody {
  model: string;
  max_tokens: number;
  messages: { role: string; content: unknown }[];
  [field: string]: unknown;
}

export function userTurn(content: unknown, extra: Record<string, unknown> = {}): MessagesBody {
  return { model: MODEL, max_tokens: 2048, messages: [{ role: 'user', content }], ...extra };
}

export function postMessages(simulator: SimulatorHandle, body: unknown, init: { headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<Response> {
  return fetch(`${simulator.url}/v1/messages`, {
    method: 'POST',
    headers: init.headers ?? ANTHROPIC_HEADERS,
    body: JSON.stringify(body),
    ...(init.signal ? { signal: init.signal } : {}),
  });
}

export interface AnthropicErrorBody {
  type: 'error';
  error: { type: string; message: string };
  request_id: string;
}

/** The status and body of an answer that must be an Anthropic error. */
export async function anthropicError(response: Response): Promise<{ status: number; body: AnthropicErrorBody }> {
  return { status: response.status, body: (await response.json()) as AnthropicErrorBody };
}

export interface NamedEvent {
  event: string | undefined;
  /** The parsed payload; tests read into it freely. */
  data: any;
}

/** The events of an SSE text, each with its name and parsed payload. */
export async function namedEvents(text: string): Promise<NamedEvent[]> {
  const events: NamedEvent[] = [];
  for await (const event of parseSse(once(text))) events.push({ event: event.event, data: JSON.parse(event.data) });
  return events;
}

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}

/** An answer's JSON; tests read into it freely. */
export async function messageJson(response: Response): Promise<any> {
  return response.json();
}
