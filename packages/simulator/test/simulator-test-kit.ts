import { eventually as waitUntil } from '../../../test/support/eventually';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { type SimulatorHandle, startSimulator } from '../src/server';
import type { SimulatorOptions } from '../src/options';

/** Shared set-up for the simulator's tests: a simulator on an ephemeral loopback port (replaying the repository's recorded responses), and ways to talk to it. */

export const RECORDED_DIR = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'recorded');

export function readRecorded(relativePath: string): Buffer {
  return readFileSync(join(RECORDED_DIR, relativePath));
}

export const AUTH = { authorization: 'Bearer sk-test-key' };

/** Starts one simulator for a test file, closed after it. */
export function useSimulator(options: SimulatorOptions = {}): { readonly current: SimulatorHandle } {
  const holder: { current?: SimulatorHandle } = {};
  beforeAll(async () => {
    holder.current = await startSimulator({ host: '127.0.0.1', port: 0, fixturesDir: RECORDED_DIR, ...options });
  });
  afterAll(async () => {
    await holder.current?.close();
  });
  return {
    get current(): SimulatorHandle {
      if (!holder.current) throw new Error('the simulator starts in beforeAll');
      return holder.current;
    },
  };
}

/** The official SDK, the strictest judge of wire compatibility; no retries, so each call is one request. */
export function openaiClient(simulator: SimulatorHandle): OpenAI {
  return new OpenAI({ apiKey: 'sk-test-key', baseURL: `${simulator.url}/v1`, maxRetries: 0 });
}

export function postJson(simulator: SimulatorHandle, path: string, body: unknown, init: RequestInit = {}): Promise<Response> {
  return fetch(`${simulator.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...AUTH },
    body: JSON.stringify(body),
    ...init,
  });
}

/** The `data:` payloads of an SSE body, in order. */
export function ssePayloads(body: string): string[] {
  return body
    .split('\n\n')
    .filter((frame) => frame.length > 0)
    .map((frame) => {
      if (!frame.startsWith('data: ')) throw new Error(`not a data-only SSE frame: ${frame}`);
      return frame.slice('data: '.length);
    });
}

/** Reads a body to its end, or to the connection's failure: what arrived, and whether the body ended cleanly. */
export async function readUntilClosed(response: Response): Promise<{ text: string; failed: boolean }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text, failed: false };
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    return { text, failed: true };
  }
}

export interface RequestLogView {
  requests: { method: string; path: string; headers: Record<string, string>; body: unknown }[];
  received: number;
  aborted: number;
}

export async function requestLog(simulator: SimulatorHandle, query = ''): Promise<RequestLogView> {
  const response = await fetch(`${simulator.url}/_sim/requests${query}`);
  return (await response.json()) as RequestLogView;
}

/** Polls until `check` holds: the server sees a client's disconnect a moment after the client makes it. */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 2000): Promise<void> {
  await waitUntil(async () => ((await check()) ? true : undefined), 'the condition', timeoutMs, 20);
}

export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export async function errorBody(response: Response): Promise<OpenAIErrorBody> {
  return (await response.json()) as OpenAIErrorBody;
}
