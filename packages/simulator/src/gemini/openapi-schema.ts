/**
 * Gemini's `Schema` (for `parameters` and `responseSchema`) is an OpenAPI
 * subset that spells types in upper case (`OBJECT`, `STRING`); the
 * simulator's sampler reads JSON Schema, which spells them in lower case.
 * @see https://ai.google.dev/api/caching#Schema
 */
export function openApiToJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(openApiToJsonSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, key === 'type' && typeof value === 'string' ? value.toLowerCase() : openApiToJsonSchema(value)]),
  );
}
