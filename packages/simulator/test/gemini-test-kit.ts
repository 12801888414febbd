import type { SimulatorHandle } from '../src/server';

/** Talking to the simulated Gemini API the way the gateway and Google's SDKs do. */

export const GEMINI_KEY_HEADER = { 'x-goog-api-key': 'test-key' };

export type GeminiMethod = 'generateContent' | 'streamGenerateContent?alt=sse' | 'streamGenerateContent';

export function postGemini(
  simulator: SimulatorHandle,
  model: string,
  method: GeminiMethod,
  body: unknown,
  init: { headers?: Record<string, string>; query?: string; signal?: AbortSignal } = {},
): Promise<Response> {
  const separator = method.includes('?') ? '&' : '?';
  return fetch(`${simulator.url}/v1beta/models/${model}:${method}${init.query ? separator + init.query : ''}`, {
    method: 'POST',
    headers: init.headers ?? { 'content-type': 'application/json', ...GEMINI_KEY_HEADER },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...(init.signal ? { signal: init.signal } : {}),
  });
}

export function userText(text: string, extra: object = {}): object {
  return { contents: [{ role: 'user', parts: [{ text }] }], ...extra };
}

export interface GeminiErrorBody {
  error: { code: number; message: string; status: string; details?: { '@type': string; [field: string]: unknown }[] };
}

export interface GeminiPartBody {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  /** Whole (`name`, `args`), or with `[sim stream_args]` in pieces: a start (`name`, `willContinue`), pieces (`partialArgs`), an end. */
  functionCall?: { name?: string; args?: Record<string, unknown>; partialArgs?: GeminiPartialArgBody[]; willContinue?: boolean };
}

export interface GeminiPartialArgBody {
  jsonPath: string;
  stringValue?: string;
  numberValue?: number;
  boolValue?: boolean;
  nullValue?: 'NULL_VALUE';
  willContinue?: boolean;
}

export interface GeminiResponseBody {
  candidates: { content: { parts?: GeminiPartBody[]; role: string }; finishReason?: string; index: number }[];
  usageMetadata: {
    promptTokenCount: number;
    candidatesTokenCount?: number;
    thoughtsTokenCount?: number;
    cachedContentTokenCount?: number;
    totalTokenCount: number;
    promptTokensDetails: { modality: string; tokenCount: number }[];
    cacheTokensDetails?: { modality: string; tokenCount: number }[];
  };
  modelVersion: string;
  responseId: string;
}

export async function generate(simulator: SimulatorHandle, model: string, body: unknown): Promise<GeminiResponseBody> {
  const response = await postGemini(simulator, model, 'generateContent', body);
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  return (await response.json()) as GeminiResponseBody;
}

/** The visible text of the first candidate, thoughts left out. */
export function answerText(body: GeminiResponseBody): string {
  return (body.candidates[0]?.content.parts ?? []).filter((part) => !part.thought && part.text).map((part) => part.text).join('');
}
