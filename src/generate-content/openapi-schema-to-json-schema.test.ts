import { toJsonSchema } from './openapi-schema-to-json-schema';

describe('toJsonSchema', () => {
  it('lower-cases types, folds nullable into the type, reads int64 bounds and drops what JSON Schema has no use for', () => {
    expect(toJsonSchema({
      type: 'OBJECT',
      propertyOrdering: ['city', 'days'],
      properties: {
        city: { type: 'STRING', description: 'a city', nullable: true },
        days: { type: 'ARRAY', items: { type: 'INTEGER', format: 'int32' }, minItems: '1', maxItems: '7' },
        unit: { type: 'STRING', enum: ['C', 'F'], example: 'C' },
        either: { anyOf: [{ type: 'NUMBER' }, { type: 'BOOLEAN' }] },
      },
      required: ['city'],
    })).toEqual({
      type: 'object',
      properties: {
        city: { type: ['string', 'null'], description: 'a city' },
        days: { type: 'array', items: { type: 'integer', format: 'int32' }, minItems: 1, maxItems: 7 },
        unit: { type: 'string', enum: ['C', 'F'] },
        either: { anyOf: [{ type: 'number' }, { type: 'boolean' }] },
      },
      required: ['city'],
    });
  });

  it('reads anything that is not a schema as the empty schema, and stops at a depth no schema reaches', () => {
    expect(toJsonSchema('STRING')).toEqual({});
    let deep: Record<string, unknown> = { type: 'STRING' };
    for (let i = 0; i < 100; i++) deep = { type: 'ARRAY', items: deep };
    expect(JSON.stringify(toJsonSchema(deep)).length).toBeLessThan(JSON.stringify(deep).length);
  });
});
