/**
 * A small JSON Schema checker for the simulator's tests: the keywords the
 * sampler claims to respect (type, required, properties,
 * additionalProperties: false, items, min/maxItems, uniqueItems, enum,
 * min/max and their exclusive forms, multipleOf, min/maxLength, the `date`
 * and `date-time` formats), each broken rule reported with where it broke.
 */
export interface JsonCheckSchema {
  type?: string | string[];
  properties?: { [name: string]: JsonCheckSchema };
  required?: string[];
  additionalProperties?: boolean;
  items?: JsonCheckSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
}

export function schemaProblems(value: unknown, schema: JsonCheckSchema, at = '$'): string[] {
  const problems: string[] = [];
  const fail = (rule: string) => problems.push(`${at}: ${rule} (got ${JSON.stringify(value)})`);
  const types = schema.type === undefined ? [] : [schema.type].flat();
  const type = typeOf(value);
  if (types.length > 0 && !types.includes(type) && !(type === 'integer' && types.includes('number'))) fail(`type ${types.join('|')}`);
  if (schema.enum && !schema.enum.some((allowed) => JSON.stringify(allowed) === JSON.stringify(value))) fail('enum');
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) fail('minimum');
    if (schema.maximum !== undefined && value > schema.maximum) fail('maximum');
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) fail('exclusiveMinimum');
    if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) fail('exclusiveMaximum');
    if (schema.multipleOf !== undefined && Math.abs(value / schema.multipleOf - Math.round(value / schema.multipleOf)) > 1e-9) fail('multipleOf');
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && [...value].length < schema.minLength) fail('minLength');
    if (schema.maxLength !== undefined && [...value].length > schema.maxLength) fail('maxLength');
    if (schema.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) fail('format date');
    if (schema.format === 'date-time' && Number.isNaN(Date.parse(value))) fail('format date-time');
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) fail('minItems');
    if (schema.maxItems !== undefined && value.length > schema.maxItems) fail('maxItems');
    if (schema.uniqueItems && new Set(value.map((item) => JSON.stringify(item))).size !== value.length) fail('uniqueItems');
    if (schema.items) value.forEach((item, index) => problems.push(...schemaProblems(item, schema.items!, `${at}[${index}]`)));
  }
  if (type === 'object') {
    const object = value as { [name: string]: unknown };
    for (const name of schema.required ?? []) if (!(name in object)) fail(`required ${name}`);
    for (const [name, item] of Object.entries(object)) {
      const inner = schema.properties?.[name];
      if (inner) problems.push(...schemaProblems(item, inner, `${at}.${name}`));
      else if (schema.additionalProperties === false) fail(`additionalProperties ${name}`);
    }
  }
  return problems;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}
