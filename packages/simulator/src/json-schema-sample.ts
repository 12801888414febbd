import { generatePhrase } from './generated-text';
import { type Random, pickOne, randomInt } from './deterministic-random';

/**
 * Builds a deterministic value that fits a JSON Schema, the way a model fills
 * in tool arguments or a structured output: required properties present,
 * values of the declared type, enums and consts respected. It covers the
 * subset of JSON Schema that function tools and `json_schema` formats use in
 * practice (types, properties, required, items, enum, const, anyOf/oneOf,
 * local $refs, numeric bounds, a few string formats), not the whole standard.
 */

/** The keywords read here, each still to be checked: a client may send anything. */
export interface JsonSchema {
  type?: unknown;
  properties?: unknown;
  required?: unknown;
  items?: unknown;
  minItems?: unknown;
  maxItems?: unknown;
  enum?: unknown;
  const?: unknown;
  anyOf?: unknown;
  oneOf?: unknown;
  $ref?: unknown;
  format?: unknown;
  minimum?: unknown;
  maximum?: unknown;
  [keyword: string]: unknown;
}
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Deeply nested or recursive schemas stop here with `null`, as a model would give up. */
const MAX_DEPTH = 8;

export function sampleJsonSchema(schema: unknown, random: Random): JsonValue {
  return sampleValue(asSchema(schema), { random, root: asSchema(schema), depth: 0 });
}

/**
 * The object the sampler would build for the object schema `schema` (a part
 * of `root`), but with the values of `given` for the properties it names, so
 * that a purpose-built answer still has exactly the schema's properties, in
 * its order. Names in `given` the schema does not require are left out.
 */
export function fillObjectSchema(schema: unknown, root: unknown, given: { [name: string]: JsonValue }, random: Random): { [key: string]: JsonValue } {
  const context = { random, root: asSchema(root), depth: 1 };
  return sampleObject(concreteSchema(schema, root) ?? {}, context, given);
}

/**
 * The schema a value at this place is built from: local `$ref`s followed
 * and, unless it lists its values, the first `anyOf`/`oneOf` alternative
 * taken, as the sampler does. Undefined for a reference loop.
 */
export function concreteSchema(schema: unknown, root: unknown): JsonSchema | undefined {
  let current = asSchema(schema);
  for (let hops = 0; hops <= MAX_DEPTH; hops++) {
    const inner = innerSchema(current, asSchema(root));
    if (inner === undefined) return current;
    current = inner;
  }
  return undefined;
}

/** The schema of property `name` of an object schema. */
export function propertySchema(schema: JsonSchema, name: string): JsonSchema {
  return asSchema(asSchema(schema.properties)[name]);
}

/** The schema of an array schema's items. */
export function itemsSchema(schema: JsonSchema): JsonSchema {
  return asSchema(schema.items);
}

/** The string values of an `enum`, in its order; empty when it lists none. */
export function stringEnum(schema: JsonSchema): string[] {
  return Array.isArray(schema.enum) ? schema.enum.filter((value): value is string => typeof value === 'string') : [];
}

interface SampleContext {
  random: Random;
  root: JsonSchema;
  depth: number;
}

function sampleValue(schema: JsonSchema, context: SampleContext): JsonValue {
  if (context.depth > MAX_DEPTH) return null;
  const inner = { ...context, depth: context.depth + 1 };
  const referred = innerSchema(schema, context.root);
  if (referred !== undefined) return sampleValue(referred, inner);
  if ('const' in schema) return schema.const as JsonValue;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return pickOne(context.random, schema.enum) as JsonValue;
  switch (declaredType(schema)) {
    case 'object':
      return sampleObject(schema, inner);
    case 'array':
      return sampleArray(schema, inner);
    case 'integer':
      return randomInt(context.random, Math.ceil(lowerBound(schema)), Math.floor(upperBound(schema)));
    case 'number':
      return Math.round((lowerBound(schema) + context.random() * (upperBound(schema) - lowerBound(schema))) * 100) / 100;
    case 'boolean':
      return context.random() < 0.5;
    case 'null':
      return null;
    default:
      return sampleString(schema, context.random);
  }
}

/**
 * One step towards the schema a value is built from: a local `$ref`
 * followed, or the first `anyOf`/`oneOf` alternative when the schema lists
 * no values of its own; undefined when the schema is already concrete.
 */
function innerSchema(schema: JsonSchema, root: JsonSchema): JsonSchema | undefined {
  if (typeof schema.$ref === 'string') return resolveLocalRef(schema.$ref, root);
  if ('const' in schema || (Array.isArray(schema.enum) && schema.enum.length > 0)) return undefined;
  const alternatives = schema.anyOf ?? schema.oneOf;
  return Array.isArray(alternatives) && alternatives.length > 0 ? asSchema(alternatives[0]) : undefined;
}

/** `type` may be a list (`["string","null"]`); a model answers with the first non-null one. */
function declaredType(schema: JsonSchema): string | undefined {
  const type = schema.type;
  if (Array.isArray(type)) return type.find((candidate) => candidate !== 'null') ?? 'null';
  if (typeof type === 'string') return type;
  if (typeof schema.properties === 'object') return 'object';
  if (schema.items !== undefined) return 'array';
  return undefined;
}

/** Required properties when the schema lists them; every property when it lists none. */
function sampleObject(schema: JsonSchema, context: SampleContext, given: { [name: string]: JsonValue } = {}): { [key: string]: JsonValue } {
  const properties = asSchema(schema.properties);
  const required = Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === 'string') : Object.keys(properties);
  const result: { [key: string]: JsonValue } = {};
  for (const name of required) result[name] = Object.hasOwn(given, name) ? (given[name] as JsonValue) : sampleValue(asSchema(properties[name]), context);
  return result;
}

function sampleArray(schema: JsonSchema, context: SampleContext): JsonValue {
  const minItems = typeof schema.minItems === 'number' ? schema.minItems : 1;
  const maxItems = typeof schema.maxItems === 'number' ? schema.maxItems : minItems;
  const length = Math.min(Math.max(minItems, 1), maxItems);
  return Array.from({ length }, () => sampleValue(asSchema(schema.items), context));
}

const FORMATTED_STRINGS: { [format: string]: string } = {
  'date-time': '2026-01-15T09:30:00Z',
  date: '2026-01-15',
  time: '09:30:00',
  email: 'user@example.com',
  uri: 'https://example.com/resource',
  uuid: '123e4567-e89b-42d3-a456-426614174000',
};

function sampleString(schema: JsonSchema, random: Random): string {
  const formatted = typeof schema.format === 'string' ? FORMATTED_STRINGS[schema.format] : undefined;
  return formatted ?? generatePhrase(Math.floor(random() * 2 ** 32), randomInt(random, 1, 3));
}

function lowerBound(schema: JsonSchema): number {
  return typeof schema.minimum === 'number' ? schema.minimum : 0;
}

function upperBound(schema: JsonSchema): number {
  return typeof schema.maximum === 'number' ? schema.maximum : lowerBound(schema) + 100;
}

/** Only same-document references (`#/$defs/x`, `#/definitions/x`), which is what generated schemas use. */
function resolveLocalRef(ref: string, root: JsonSchema): JsonSchema {
  if (!ref.startsWith('#')) return {};
  const segments = ref.slice(1).split('/').filter(Boolean).map(decodePointerSegment);
  let target: unknown = root;
  for (const segment of segments) target = asSchema(target)[segment];
  return asSchema(target);
}

function decodePointerSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function asSchema(value: unknown): JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonSchema) : {};
}
