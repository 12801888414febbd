/**
 * Gemini's `Schema` (an OpenAPI 3.0 subset: upper-case `type` names,
 * `nullable`, integer bounds as strings, `propertyOrdering`) as JSON Schema,
 * for upstreams that take JSON Schema (OpenAI's and Anthropic's tools and
 * structured output). Keywords JSON Schema has no use for are dropped.
 * @see https://ai.google.dev/api/caching#Schema
 */
export function toJsonSchema(schema: unknown, depth = 0): Record<string, unknown> {
  if (depth > 64 || typeof schema !== 'object' || schema === null || Array.isArray(schema)) return {};
  const source = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (DROPPED.has(key)) continue;
    if (key === 'type' && typeof value === 'string') {
      const type = value.toLowerCase();
      if (type !== 'type_unspecified') out.type = source.nullable === true ? [type, 'null'] : type;
    } else if (key === 'properties' && typeof value === 'object' && value !== null) {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, toJsonSchema(property, depth + 1)]));
    } else if (key === 'items') {
      out.items = toJsonSchema(value, depth + 1);
    } else if (key === 'anyOf' && Array.isArray(value)) {
      out.anyOf = value.map((option) => toJsonSchema(option, depth + 1));
    } else if (INTEGER_KEYWORDS.has(key) && typeof value === 'string' && /^\d+$/.test(value)) {
      out[key] = Number(value);
    } else {
      out[key] = value;
    }
  }
  if (source.nullable === true && out.type === undefined && Array.isArray(source.enum)) out.enum = [...source.enum, null];
  return out;
}

/** Keywords of Gemini's subset with no JSON Schema meaning (`nullable` is folded into `type`). */
const DROPPED = new Set(['nullable', 'propertyOrdering', 'example']);

/** int64 fields, which proto JSON writes as strings. */
const INTEGER_KEYWORDS = new Set(['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties']);
