import type { GeminiPartialArgWire } from './gemini-api';
import { malformedGeminiAnswer } from './gemini-errors';
import { type ArgumentPathStep, parseArgumentPath } from './parse-argument-path';

type JsonLeaf = string | number | boolean | null;
type JsonObject = { [name: string]: JsonValue };
type JsonValue = JsonLeaf | JsonValue[] | JsonObject;

/**
 * The arguments of one function call, built from the pieces Gemini streams
 * them in (`partialArgs`): each piece sets one scalar at a JSON Path,
 * creating the objects and arrays on the way, and the pieces of a string
 * arriving for the same path are joined in order. Anything that cannot be
 * placed without guessing (an unreadable path, a second value for a
 * number, an array index past the end, a name used on an array) is a
 * malformed stream chunk naming the field, never a silently different
 * object.
 * @see https://docs.cloud.google.com/vertex-ai/generative-ai/docs/multimodal/function-calling#streaming-fc
 */
export class PartialArguments {
  /** Without a prototype, so that an argument named `__proto__` is just a name. */
  private readonly root: JsonObject = Object.create(null) as JsonObject;

  /** `field` is where the piece sits in the chunk, for the error. */
  apply(piece: GeminiPartialArgWire, field: string): void {
    const steps = parseArgumentPath(piece.jsonPath);
    if (!steps) throw unreadable(`${field}.jsonPath`, 'not a JSON Path of member names and array indices');
    const value = pieceValue(piece, field);
    let container: JsonObject | JsonValue[] = this.root;
    for (const [at, step] of steps.entries()) {
      const existing = member(container, step, `${field}.jsonPath`);
      if (at === steps.length - 1) {
        if (value !== NO_VALUE) place(container, step, joined(existing, value, `${field}.jsonPath`), `${field}.jsonPath`);
        else if (existing === undefined) throw unreadable(field, 'a piece with no value for an argument that has none yet');
        return;
      }
      const next = steps[at + 1]!;
      if (existing === undefined) {
        const child: JsonObject | JsonValue[] = typeof next === 'number' ? [] : (Object.create(null) as JsonObject);
        place(container, step, child, `${field}.jsonPath`);
        container = child;
      } else if (isContainer(existing)) {
        container = existing;
      } else {
        throw unreadable(`${field}.jsonPath`, 'the path goes through a value that is not an object or array');
      }
    }
  }

  /** The arguments as JSON text: an object, `{}` when no piece came. */
  toJson(): string {
    return JSON.stringify(this.root);
  }
}

/** A piece may carry no value, which only says that the value at its path is complete. */
const NO_VALUE = Symbol('no value');

/** Exactly one of the oneof's value fields; `nullValue` counts by its presence, as its only value is null. */
function pieceValue(piece: GeminiPartialArgWire, field: string): JsonLeaf | typeof NO_VALUE {
  const values: JsonLeaf[] = [];
  if (piece.stringValue != null) values.push(piece.stringValue);
  if (piece.numberValue != null) values.push(piece.numberValue);
  if (piece.boolValue != null) values.push(piece.boolValue);
  if ('nullValue' in piece) values.push(null);
  if (values.length > 1) throw unreadable(field, 'a piece with more than one value');
  return values.length ? values[0]! : NO_VALUE;
}

function member(container: JsonObject | JsonValue[], step: ArgumentPathStep, field: string): JsonValue | undefined {
  if (Array.isArray(container)) {
    if (typeof step !== 'number') throw unreadable(field, 'a member name used on an array');
    return container[step];
  }
  if (typeof step === 'number') throw unreadable(field, 'an array index used on an object');
  return Object.hasOwn(container, step) ? container[step] : undefined;
}

/** Arrays grow one element at a time, in order: an index past the end would leave a hole that JSON can only fill with null. */
function place(container: JsonObject | JsonValue[], step: ArgumentPathStep, value: JsonValue, field: string): void {
  if (Array.isArray(container)) {
    if ((step as number) > container.length) throw unreadable(field, 'an array index past the end of the array');
    container[step as number] = value;
  } else {
    container[step as string] = value;
  }
}

/** A first value, or the next piece of a string; a second value for anything else is ambiguous. */
function joined(existing: JsonValue | undefined, value: JsonLeaf, field: string): JsonValue {
  if (existing === undefined) return value;
  if (typeof existing === 'string' && typeof value === 'string') return existing + value;
  throw unreadable(field, 'a second value for an argument that already has one');
}

function isContainer(value: JsonValue): value is JsonObject | JsonValue[] {
  return typeof value === 'object' && value !== null;
}

function unreadable(field: string, problem: string) {
  return malformedGeminiAnswer(`${field}: ${problem}`, 'stream chunk');
}
