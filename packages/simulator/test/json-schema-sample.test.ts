import { seededRandom } from '../src/deterministic-random';
import { sampleJsonSchema } from '../src/json-schema-sample';

const sample = (schema: unknown) => sampleJsonSchema(schema, seededRandom(42));

describe('sampleJsonSchema', () => {
  it('fills the required properties with values of their types and leaves the others out', () => {
    const value = sample({
      type: 'object',
      properties: {
        name: { type: 'string' },
        count: { type: 'integer', minimum: 3, maximum: 5 },
        ratio: { type: 'number', minimum: 0, maximum: 1 },
        active: { type: 'boolean' },
        nothing: { type: 'null' },
        optional: { type: 'string' },
      },
      required: ['name', 'count', 'ratio', 'active', 'nothing'],
    }) as { name: unknown; count: number; ratio: number; active: unknown; nothing: unknown };

    expect(Object.keys(value).sort()).toEqual(['active', 'count', 'name', 'nothing', 'ratio']);
    expect(typeof value.name).toBe('string');
    expect(value.count).toEqual(expect.any(Number));
    expect(Number.isInteger(value.count) && value.count >= 3 && value.count <= 5).toBe(true);
    expect(value.ratio >= 0 && value.ratio <= 1).toBe(true);
    expect(typeof value.active).toBe('boolean');
    expect(value.nothing).toBeNull();
  });

  it('fills every property when the schema requires none', () => {
    expect(Object.keys(sample({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } }) as object)).toEqual(['a', 'b']);
  });

  it('respects enum, const, nullable type lists, anyOf, formats and array bounds', () => {
    const value = sample({
      type: 'object',
      properties: {
        color: { enum: ['red', 'green'] },
        kind: { const: 'fixed' },
        maybe: { type: ['null', 'integer'] },
        either: { anyOf: [{ type: 'boolean' }, { type: 'string' }] },
        when: { type: 'string', format: 'date' },
        list: { type: 'array', items: { type: 'integer' }, minItems: 2 },
      },
    }) as { color: unknown; kind: unknown; maybe: unknown; either: unknown; when: unknown; list: unknown };

    expect(['red', 'green']).toContain(value.color);
    expect(value.kind).toBe('fixed');
    expect(Number.isInteger(value.maybe)).toBe(true);
    expect(typeof value.either).toBe('boolean');
    expect(value.when).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(value.list).toEqual([expect.any(Number), expect.any(Number)]);
  });

  it('follows local $refs and stops on recursive ones', () => {
    const value = sample({
      type: 'object',
      properties: { address: { $ref: '#/$defs/address' }, tree: { $ref: '#/$defs/node' } },
      $defs: {
        address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        node: { type: 'object', properties: { child: { $ref: '#/$defs/node' } }, required: ['child'] },
      },
    }) as { address: unknown; tree: unknown };

    expect(value.address).toEqual({ city: expect.any(String) });
    expect(JSON.stringify(value.tree)).toContain('null');
  });

  it('is deterministic for a seed', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } } };
    expect(sampleJsonSchema(schema, seededRandom(7))).toEqual(sampleJsonSchema(schema, seededRandom(7)));
    expect(sampleJsonSchema(schema, seededRandom(7))).not.toEqual(sampleJsonSchema(schema, seededRandom(8)));
  });
});
