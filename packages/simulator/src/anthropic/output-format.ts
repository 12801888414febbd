import type { JsonSchema } from '../json-schema-sample';
import { type AnthropicError, invalidRequest } from './errors';
import type { MessagesRequest } from './messages-request';

/**
 * Structured outputs: the JSON schema the answer's text must follow, given
 * as `output_config.format` (generally available) or as the older
 * top-level `output_format` (the `structured-outputs-2025-11-13` beta),
 * never both. The schema is checked as the real API checks it: every
 * object with properties closed by `additionalProperties: false`, and none
 * of the numeric, length or array bounds structured outputs do not take.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs
 */
export interface OutputFormat {
  type: string;
  schema?: JsonSchema;
}

export type OutputSchema = { ok: true; schema: JsonSchema | undefined } | { ok: false; error: AnthropicError };

const UNSUPPORTED_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'maxItems', 'uniqueItems', 'oneOf', 'not'];

export function outputSchemaOf(request: MessagesRequest): OutputSchema {
  const beta = request.output_format;
  const current = request.output_config?.format;
  if (beta !== undefined && current !== undefined) return refuse('output_format: cannot be set together with output_config.format; use output_config.format');
  const format = current ?? beta;
  const field = current !== undefined ? 'output_config.format' : 'output_format';
  if (format === undefined || format === null) return { ok: true, schema: undefined };
  if (format.type !== 'json_schema') return refuse(`${field}.type: Input should be 'json_schema'`);
  if (typeof format.schema !== 'object' || format.schema === null || Array.isArray(format.schema)) return refuse(`${field}.schema: Field required`);
  const problem = schemaProblem(format.schema, `${field}.schema`, 0);
  return problem ? refuse(problem) : { ok: true, schema: format.schema };
}

function refuse(message: string): OutputSchema {
  return { ok: false, error: invalidRequest(message) };
}

const MAX_DEPTH = 16;
/** Keywords whose value maps names to schemas, rather than being a schema itself. */
const NAMED_SCHEMAS = ['properties', '$defs', 'definitions'];

function schemaProblem(schema: unknown, path: string, depth: number): string | undefined {
  if (typeof schema !== 'object' || schema === null || depth > MAX_DEPTH) return undefined;
  if (Array.isArray(schema)) return schema.map((inner, index) => schemaProblem(inner, `${path}.${index}`, depth + 1)).find(Boolean);
  const node = schema as JsonSchema;
  const unsupported = UNSUPPORTED_KEYWORDS.find((keyword) => keyword in node);
  if (unsupported) return `${path}: the keyword '${unsupported}' is not supported by structured outputs`;
  if (node.type === 'object' && node.properties !== undefined && node.additionalProperties !== false) {
    return `${path}: For 'object' type, 'additionalProperties' must be explicitly set to false`;
  }
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === 'enum' || keyword === 'const' || keyword === 'default') continue;
    const problem = NAMED_SCHEMAS.includes(keyword) && typeof value === 'object' && value !== null
      ? Object.entries(value).map(([name, inner]) => schemaProblem(inner, `${path}.${keyword}.${name}`, depth + 1)).find(Boolean)
      : schemaProblem(value, `${path}.${keyword}`, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}
