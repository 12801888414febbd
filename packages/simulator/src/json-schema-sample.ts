import { type Random, randomInt } from './deterministic-random';
import { numberRangeForProperty, stringForProperty } from './property-values';

/**
 * Builds a deterministic value that fits a JSON Schema, the way a model fills
 * in tool arguments or a structured output: required properties present,
 * values of the declared type, enums (their first value) and consts
 * respected, and values that make sense for the property's name (a city for
 * `city`, an ISO date for `start_date`; see property-values.ts). It covers
 * the subset of JSON Schema that function tools and `json_schema` formats
 * use in practice (types, properties, required, items, enum, const,
 * anyOf/oneOf, allOf of objects, local $refs, numeric bounds and
 * `multipleOf`, string lengths, item counts, a few string formats), not the
 * whole standard: a `pattern` is not followed.
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
  exclusiveMinimum?: unknown;
  exclusiveMaximum?: unknown;
  multipleOf?: unknown;
  minLength?: unknown;
  maxLength?: unknown;
  allOf?: unknown;
  [keyword: string]: unknown;
}
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Deeply nested or recursive schemas stop here with `null`, as a model would give up. */
const MAX_DEPTH = 8;

/** `prompt` is what the user wrote, for values taken from it: a query, a city the user named. */
export function sampleJsonSchema(schema: unknown, random: Random, prompt?: string): JsonValue {
  return sampleValue(asSchema(schema), { random, root: asSchema(schema), depth: 0, name: undefined, prompt, laterItem: false });
}

/**
 * The object the sampler would build for the object schema `schema` (a part
 * of `root`), but with the values of `given` for the properties it names, so
 * that a purpose-built answer still has exactly the schema's properties, in
 * its order. Names in `given` the schema does not require are left out.
 */
export function fillObjectSchema(schema: unknown, root: unknown, given: { [name: string]: JsonValue }, random: Random): { [key: string]: JsonValue } {
  const context = { random, root: asSchema(root), depth: 1, name: undefined, prompt: undefined, laterItem: false };
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
  /** The name of the property being filled in (for an array's items, the array's), for a value that suits it. */
  name: string | undefined;
  prompt: string | undefined;
  /** Filling a second or later item of an array. */
  laterItem: boolean;
}

function sampleValue(schema: JsonSchema, context: SampleContext): JsonValue {
  if (context.depth > MAX_DEPTH) return null;
  const inner = { ...context, depth: context.depth + 1 };
  const referred = innerSchema(schema, context.root);
  if (referred !== undefined) return sampleValue(referred, inner);
  if ('const' in schema) return schema.const as JsonValue;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0] as JsonValue;
  switch (declaredType(schema)) {
    case 'object':
      return sampleObject(schema, inner);
    case 'array':
      return sampleArray(schema, inner);
    case 'integer':
      return sampleNumber(schema, context, true);
    case 'number':
      return sampleNumber(schema, context, false);
    case 'boolean':
      return context.random() < 0.5;
    case 'null':
      return null;
    default:
      return sampleString(schema, context);
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
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return mergeAllOf(schema, root);
  const alternatives = schema.anyOf ?? schema.oneOf;
  return Array.isArray(alternatives) && alternatives.length > 0 ? asSchema(alternatives[0]) : undefined;
}

/**
 * `allOf` as one schema, its parts' keywords together, and the properties
 * and required names of object parts (local `$ref`s followed) joined, as
 * generated schemas use it to extend an object.
 */
function mergeAllOf(schema: JsonSchema, root: JsonSchema): JsonSchema {
  const { allOf, ...own } = schema;
  const parts = [...(allOf as unknown[]).map((part) => concreteSchema(part, root) ?? {}), own];
  const merged: JsonSchema = Object.assign({}, ...parts);
  const properties = Object.assign({}, ...parts.map((part) => asSchema(part.properties)));
  const required = [...new Set(parts.flatMap((part) => (Array.isArray(part.required) ? part.required : [])))];
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (parts.some((part) => Array.isArray(part.required))) merged.required = required;
  return merged;
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
  for (const name of required) {
    result[name] = Object.hasOwn(given, name) ? (given[name] as JsonValue) : sampleValue(asSchema(properties[name]), { ...context, name, laterItem: false });
  }
  return result;
}

/** Tries at an item that differs from the ones before it, as a model lists different things. */
const DISTINCT_ITEM_TRIES = 8;

function sampleArray(schema: JsonSchema, context: SampleContext): JsonValue {
  const minItems = typeof schema.minItems === 'number' ? schema.minItems : 1;
  const maxItems = typeof schema.maxItems === 'number' ? schema.maxItems : minItems;
  const length = Math.min(Math.max(minItems, 1), maxItems);
  const items: JsonValue[] = [];
  const written = new Set<string>();
  for (let index = 0; index < length; index++) {
    let item: JsonValue = null;
    for (let attempt = 0; attempt < DISTINCT_ITEM_TRIES && (attempt === 0 || written.has(JSON.stringify(item))); attempt++) {
      item = sampleValue(asSchema(schema.items), { ...context, laterItem: index > 0 || attempt > 0 });
    }
    if (schema.uniqueItems === true && typeof item === 'string' && written.has(JSON.stringify(item))) item = numbered(item, index, concreteSchema(schema.items, context.root) ?? {});
    written.add(JSON.stringify(item));
    items.push(item);
  }
  return items;
}

/** A string made distinct by its place in the list (`example value 3`), within its `maxLength`. */
function numbered(text: string, index: number, schema: JsonSchema): string {
  const suffix = ` ${index + 1}`;
  const room = typeof schema.maxLength === 'number' ? Math.max(0, schema.maxLength - suffix.length) : text.length;
  return [...text].slice(0, room).join('') + suffix;
}

const FORMATTED_STRINGS: { [format: string]: string } = {
  'date-time': '2026-01-15T09:30:00Z',
  date: '2026-01-15',
  time: '09:30:00',
  email: 'ada.lovelace@example.com',
  uri: 'https://example.com/resource',
  'uri-reference': 'https://example.com/resource',
  uuid: '123e4567-e89b-42d3-a456-426614174000',
  hostname: 'example.com',
  ipv4: '192.0.2.10',
  ipv6: '2001:db8::10',
};

/** A value its format or its name suggests, lengthened or cut to `minLength`/`maxLength`. */
function sampleString(schema: JsonSchema, context: SampleContext): string {
  const formatted = typeof schema.format === 'string' ? FORMATTED_STRINGS[schema.format] : undefined;
  let text = formatted ?? stringForProperty(context.random, context);
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  while (text.length < minLength) text += text === '' ? 'example' : ' example';
  return [...text].slice(0, maxLength).join('');
}

/**
 * A number within the schema's bounds and, inside them, the range the
 * property's name suggests (an age, a price); whole for `integer`, a
 * multiple of `multipleOf` when one is asked for.
 */
function sampleNumber(schema: JsonSchema, context: SampleContext, integer: boolean): number {
  const suggested = numberRangeForProperty(context.name);
  const { min, max } = withinSuggestion(schemaBounds(schema, integer), suggested);
  const step = typeof schema.multipleOf === 'number' && schema.multipleOf > 0 ? schema.multipleOf : integer ? 1 : undefined;
  if (step !== undefined) {
    const first = Math.ceil(min / step);
    const last = Math.floor(max / step);
    return last < first ? min : roundToStep(randomInt(context.random, first, last) * step, step);
  }
  const decimals = suggested?.decimals ?? 2;
  const value = Math.round((min + context.random() * (max - min)) * 10 ** decimals) / 10 ** decimals;
  return Math.min(max, Math.max(min, value));
}

/** The schema's own bounds, exclusive ones moved just inside; 0 to 100 from whichever bound is given when one is missing. */
function schemaBounds(schema: JsonSchema, integer: boolean): { min: number | undefined; max: number | undefined } {
  const inside = integer ? 1 : 0.01;
  const min = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + inside : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - inside : undefined;
  return { min, max };
}

/** The span of a number whose schema and name give no range, from the bound given or from 0. */
const DEFAULT_SPAN = 100;

function withinSuggestion(bounds: { min: number | undefined; max: number | undefined }, suggested: { min: number; max: number } | undefined): { min: number; max: number } {
  const lowest = bounds.min ?? Number.NEGATIVE_INFINITY;
  const highest = bounds.max ?? Number.POSITIVE_INFINITY;
  if (suggested && suggested.max >= lowest && suggested.min <= highest) return { min: Math.max(lowest, suggested.min), max: Math.min(highest, suggested.max) };
  const min = bounds.min ?? (bounds.max === undefined ? 0 : Math.min(0, bounds.max - DEFAULT_SPAN));
  return { min, max: bounds.max ?? min + DEFAULT_SPAN };
}

/** Multiplying by a fractional step leaves float noise (3 * 0.1); rounded to the step's own decimals. */
function roundToStep(value: number, step: number): number {
  const decimals = (String(step).split('.')[1] ?? '').length;
  return Number(value.toFixed(decimals));
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
