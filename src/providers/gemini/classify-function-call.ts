import type { GeminiFunctionCallWire, GeminiPartialArgWire } from './gemini-api';

/**
 * The three shapes a `functionCall` part comes in. Whole: `name` and `args`
 * at once (every whole answer, and streams by default). With
 * `streamFunctionCallArguments` (Gemini 3 on Vertex AI), a call starts with
 * its `name` and `willContinue: true`, then continues in pieces with no
 * `name` that carry `partialArgs`; the first part without `willContinue`
 * ends it (often an empty `functionCall: {}`). A named part that carries
 * pieces but does not say it will continue is a call started and ended at
 * once.
 * @see https://docs.cloud.google.com/vertex-ai/generative-ai/docs/multimodal/function-calling#streaming-fc
 */
export type FunctionCallShape = WholeFunctionCall | FunctionCallStart | FunctionCallPiece;

export interface WholeFunctionCall {
  kind: 'whole';
  id: string | undefined;
  name: string;
  args: Record<string, unknown>;
}

export interface FunctionCallStart {
  kind: 'start';
  id: string | undefined;
  name: string;
  partialArgs: GeminiPartialArgWire[];
  /** True when no piece follows: the call ends with this part. */
  ends: boolean;
}

export interface FunctionCallPiece {
  kind: 'piece';
  partialArgs: GeminiPartialArgWire[];
  ends: boolean;
}

export function classifyFunctionCall(call: GeminiFunctionCallWire): FunctionCallShape {
  const ends = call.willContinue !== true;
  const partialArgs = call.partialArgs ?? [];
  if (call.name == null) return { kind: 'piece', partialArgs, ends };
  if (!ends || call.partialArgs != null) return { kind: 'start', id: call.id ?? undefined, name: call.name, partialArgs, ends };
  return { kind: 'whole', id: call.id ?? undefined, name: call.name, args: call.args ?? {} };
}
