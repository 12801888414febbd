import type { JsonValue } from '../json-schema-sample';
import { splitIntoPieces } from '../text-pieces';
import type { SignedFunctionCall } from './answer';

/**
 * A function call with its arguments streamed in pieces, as Gemini 3 on
 * Vertex AI sends it when the request sets
 * `toolConfig.functionCallingConfig.streamFunctionCallArguments` (asked for
 * here with `[sim stream_args]`): a first part with the name, the thought
 * signature and `willContinue: true`; then one part per piece, with no
 * name, each holding one `partialArgs` entry (a JSON Path and one scalar;
 * a string split over several pieces of the same path, all but its last
 * saying `willContinue`); then a last part with `willContinue: false`. A
 * call without arguments is just its first and last parts.
 * @see https://docs.cloud.google.com/vertex-ai/generative-ai/docs/multimodal/function-calling#streaming-fc
 */
export function streamedFunctionCallParts(call: SignedFunctionCall, pieceCharacters: number): object[] {
  const start = { functionCall: { name: call.name, willContinue: true }, ...(call.thoughtSignature === undefined ? {} : { thoughtSignature: call.thoughtSignature }) };
  const pieces = leaves(call.args, '$').flatMap(([jsonPath, value]) => argumentPieces(jsonPath, value, pieceCharacters));
  return [start, ...pieces.map((piece) => ({ functionCall: { partialArgs: [piece], willContinue: true } })), { functionCall: { willContinue: false } }];
}

/**
 * A piece carries a scalar, so an empty object or array cannot be streamed:
 * the arguments of a call to stream are first cleared of them (and of the
 * objects and arrays that held only those; the arguments themselves stay
 * an object, `{}` at the least), so that what the pieces assemble to is
 * the call itself, and its thought signature stays valid.
 */
export function streamableArguments(args: { [key: string]: JsonValue }): { [key: string]: JsonValue } {
  return (withoutEmptyContainers(args) ?? {}) as { [key: string]: JsonValue };
}

function withoutEmptyContainers(value: JsonValue): JsonValue | undefined {
  if (Array.isArray(value)) {
    const items = value.map(withoutEmptyContainers).filter((item) => item !== undefined);
    return items.length ? items : undefined;
  }
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).flatMap(([name, item]) => {
    const kept = withoutEmptyContainers(item);
    return kept === undefined ? [] : [[name, kept] as const];
  });
  return entries.length ? Object.fromEntries(entries) : undefined;
}

/** Every scalar with its JSON Path, in document order. */
function leaves(value: JsonValue, path: string): [string, string | number | boolean | null][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => leaves(item, `${path}[${index}]`));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([name, item]) => leaves(item, `${path}${memberStep(name)}`));
  return [[path, value]];
}

/** `.name` for a name of identifier characters, the bracket form (escaped as in JSON, which RFC 9535 shares) for any other. */
function memberStep(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

function argumentPieces(jsonPath: string, value: string | number | boolean | null, pieceCharacters: number): object[] {
  if (typeof value === 'number') return [{ jsonPath, numberValue: value }];
  if (typeof value === 'boolean') return [{ jsonPath, boolValue: value }];
  if (value === null) return [{ jsonPath, nullValue: 'NULL_VALUE' }];
  const pieces = splitIntoPieces(value, pieceCharacters);
  if (pieces.length === 0) return [{ jsonPath, stringValue: '' }];
  return pieces.map((piece, index) => ({ jsonPath, stringValue: piece, ...(index < pieces.length - 1 ? { willContinue: true } : {}) }));
}
