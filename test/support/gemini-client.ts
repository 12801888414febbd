import type * as GenAI from '@google/genai' with { 'resolution-mode': 'import' };

/**
 * The Google Gen AI SDK, loaded through its CommonJS build (its type
 * declarations are ES modules only, which a CommonJS test file may import
 * as types alone).
 */
export const genai = require('@google/genai') as typeof GenAI;

export type { Content, GenerateContentResponse, GoogleGenAI } from '@google/genai' with { 'resolution-mode': 'import' };

/**
 * The SDK pointed at a gateway. Under jest's VM context it cannot reach
 * Node's undici dispatcher (its no-timeout dispatcher looks for it on the
 * sandbox's `globalThis`), so it is handed the global `fetch`, which is
 * what it would call anyway; nothing else changes.
 */
export function geminiClient(apiKey: string, gatewayUrl: string, headers?: Record<string, string>): GenAI.GoogleGenAI {
  return new genai.GoogleGenAI({ apiKey, httpOptions: { baseUrl: gatewayUrl, fetch: (input, init) => fetch(input, init), ...(headers ? { headers } : {}) } });
}
