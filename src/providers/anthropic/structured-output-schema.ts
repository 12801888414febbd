/**
 * Whether a JSON schema stays within what Anthropic's structured outputs
 * take: the keywords they document, `additionalProperties: false` on every
 * object with properties, `minItems` of 0 or 1, enums of plain values, the
 * string formats they know, local `$ref`s that do not recurse. Anything
 * else (numeric and length bounds, `oneOf`, `not`, `$schema`, a recursive
 * schema) they refuse, so such a schema goes to the forced tool instead,
 * which takes any JSON schema.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs#json-schema-limitations
 */

const KEYWORDS = new Set([
  'type', 'description', 'title', 'default', 'enum', 'const', 'properties', 'required', 'additionalProperties',
  'items', 'minItems', 'anyOf', 'allOf', '$ref', '$defs', 'definitions', 'format', 'pattern',
]);

const FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']);

type Schema = { readonly [keyword: string]: unknown };

export function withinStructuredOutputSchemas(root: Schema): boolean {
  return within(root, root, []);
}

function within(schema: unknown, root: Schema, refs: readonly string[]): boolean {
  if (!isSchema(schema)) return false;
  for (const [keyword, value] of Object.entries(schema)) {
    if (!KEYWORDS.has(keyword) || !keywordWithin(keyword, value, schema, root, refs)) return false;
  }
  const isObject = schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object'));
  return !(isObject && schema.properties !== undefined && schema.additionalProperties !== false);
}

function keywordWithin(keyword: string, value: unknown, schema: Schema, root: Schema, refs: readonly string[]): boolean {
  switch (keyword) {
    case 'properties':
    case '$defs':
    case 'definitions':
      return isSchema(value) && Object.values(value).every((inner) => within(inner, root, refs));
    case 'items':
      return within(value, root, refs);
    case 'anyOf':
      return Array.isArray(value) && value.every((inner) => within(inner, root, refs));
    case 'allOf':
      return Array.isArray(value) && value.every((inner) => isSchema(inner) && inner.$ref === undefined && within(inner, root, refs));
    case 'additionalProperties':
      return value === false;
    case 'minItems':
      return value === 0 || value === 1;
    case 'enum':
      return Array.isArray(value) && value.every((member) => member === null || typeof member !== 'object');
    case 'format':
      return typeof value === 'string' && FORMATS.has(value);
    case '$ref':
      return refWithin(value, root, refs) && Object.keys(schema).every((other) => other === '$ref' || other === 'description' || other === 'title');
    default:
      return true;
  }
}

/** A local `#/$defs/...` or `#/definitions/...` reference, followed unless it leads back to where it came from. */
function refWithin(ref: unknown, root: Schema, refs: readonly string[]): boolean {
  if (typeof ref !== 'string' || refs.includes(ref)) return false;
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  if (!match) return false;
  const defs = root[match[1]!];
  const target = isSchema(defs) ? defs[decodeURIComponent(match[2]!).replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return target !== undefined && within(target, root, [...refs, ref]);
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
