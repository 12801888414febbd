import { type JsonSchema, type JsonValue, concreteSchema, itemsSchema, propertySchema, stringEnum } from './json-schema-sample';

/**
 * A structured answer's JSON, written compactly as a model writes it under
 * a `json_schema` format (the bytes of `JSON.stringify`), along with where
 * the model chose among the values of an `enum`: the places a client reads
 * log-probabilities at, to learn how sure the model was of that choice.
 */

/** Where a value sits in a JSON document: property names and array indexes from the root. */
export type JsonPath = (string | number)[];

/** A string whose schema lists two or more string values, and where its text starts. */
export interface EnumSpot {
  /** Index in the text of the string's opening quote. */
  offset: number;
  path: JsonPath;
  /** The value written. */
  value: string;
  /** Every value the schema allows, in the schema's order, the written one among them. */
  values: string[];
}

export interface SerializedJson {
  text: string;
  spots: EnumSpot[];
}

/** Walks the value and its schema together, so that each string knows whether an enum constrained it. */
export function serializeWithEnumSpots(value: JsonValue, schema: unknown): SerializedJson {
  const writer = { text: '', spots: [] as EnumSpot[] };
  write(value, concreteSchema(schema, schema) ?? {}, [], writer, schema);
  return writer;
}

/**
 * The token a model emits when it picks `value` of an enum: the opening
 * quote glued to the value (`"yes`), as OpenAI's tokenizers merge them, the
 * value escaped as it is inside the JSON text.
 */
export function enumToken(value: string): string {
  return JSON.stringify(value).slice(0, -1);
}

/** A stable key for a path, for looking places up. */
export function pathKey(path: JsonPath): string {
  return JSON.stringify(path);
}

function write(value: JsonValue, schema: JsonSchema, path: JsonPath, writer: SerializedJson, root: unknown): void {
  if (Array.isArray(value)) {
    writer.text += '[';
    value.forEach((item, index) => {
      if (index > 0) writer.text += ',';
      write(item, concreteSchema(itemsSchema(schema), root) ?? {}, [...path, index], writer, root);
    });
    writer.text += ']';
    return;
  }
  if (typeof value === 'object' && value !== null) {
    writer.text += '{';
    Object.entries(value).forEach(([name, item], index) => {
      if (index > 0) writer.text += ',';
      writer.text += JSON.stringify(name) + ':';
      write(item, concreteSchema(propertySchema(schema, name), root) ?? {}, [...path, name], writer, root);
    });
    writer.text += '}';
    return;
  }
  if (typeof value === 'string') {
    const values = stringEnum(schema);
    if (values.length >= 2 && values.includes(value)) writer.spots.push({ offset: writer.text.length, path, value, values });
  }
  writer.text += JSON.stringify(value);
}
