import { seededRandom } from '../src/deterministic-random';
import { sampleJsonSchema } from '../src/json-schema-sample';
import { type JsonCheckSchema, schemaProblems } from './json-schema-check';

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

    expect(value.color).toBe('red');
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

  const weatherTool = { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, required: ['city', 'unit'] };
  const CITY = /^[A-Z][a-z]+(?: [A-Z][a-z]+)?$/;

  it('fills a weather tool with a city name and a unit it lists, the city the user named when it knows it', () => {
    for (let seed = 0; seed < 20; seed++) {
      const args = sampleJsonSchema(weatherTool, seededRandom(seed)) as { city: string; unit: string };
      expect(args.city).toMatch(CITY);
      expect(args.unit).toBe('celsius');
    }
    expect(sampleJsonSchema(weatherTool, seededRandom(1), 'What is the weather in Lisbon today?')).toEqual({ city: 'Lisbon', unit: 'celsius' });
  });

  it('gives values that suit the property names', () => {
    const value = sample({
      type: 'object',
      properties: {
        customer_name: { type: 'string' },
        contactEmail: { type: 'string' },
        start_date: { type: 'string' },
        created_at: { type: 'string' },
        homepage: { type: 'string' },
        search_query: { type: 'string' },
        age: { type: 'integer' },
        price: { type: 'number' },
        description: { type: 'string' },
      },
    }) as { [name: string]: string | number };

    expect(value.customer_name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z-]+$/);
    expect(value.contactEmail).toMatch(/^[a-z.-]+@example\.com$/);
    expect(value.start_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(new Date(value.created_at as string).toISOString()).toBe('2026-01-15T09:30:00.000Z');
    expect(value.homepage).toMatch(/^https:\/\/example\.com\//);
    expect(typeof value.search_query).toBe('string');
    expect(value.age).toBeGreaterThanOrEqual(18);
    expect(value.age).toBeLessThanOrEqual(80);
    expect(value.price).toBeGreaterThan(0);
    expect(value.description).toMatch(/^[A-Z][^]*\.$/);
  });

  it('writes structured output that is valid for a schema with nested objects, arrays, enums and bounds', () => {
    const schema: JsonCheckSchema = {
      type: 'object',
      additionalProperties: false,
      required: ['trip', 'travellers', 'budget', 'rating', 'notes'],
      properties: {
        trip: {
          type: 'object',
          additionalProperties: false,
          required: ['destination', 'nights', 'season', 'stops'],
          properties: {
            destination: { type: 'string' },
            nights: { type: 'integer', minimum: 2, maximum: 4 },
            season: { type: 'string', enum: ['spring', 'summer'] },
            stops: { type: 'array', minItems: 2, maxItems: 3, items: { type: 'object', required: ['city', 'day'], properties: { city: { type: 'string' }, day: { type: 'string', format: 'date' } } } },
          },
        },
        travellers: { type: 'array', minItems: 3, uniqueItems: true, items: { type: 'string', minLength: 3, maxLength: 24 } },
        budget: { type: 'number', exclusiveMinimum: 1000, maximum: 1200, multipleOf: 50 },
        rating: { type: 'integer', minimum: -3, maximum: -1 },
        notes: { type: ['string', 'null'], maxLength: 20 },
      },
    };

    for (let seed = 0; seed < 25; seed++) {
      const value = sampleJsonSchema(schema, seededRandom(seed), 'Plan a trip to Tokyo');
      expect(schemaProblems(value, schema)).toEqual([]);
      const { trip, travellers } = value as { trip: { destination: string; stops: { city: string }[] }; travellers: string[] };
      expect(trip.destination).toBe('Tokyo');
      expect(trip.stops.every((stop) => CITY.test(stop.city))).toBe(true);
      expect(new Set(travellers).size).toBe(travellers.length);
    }
  });

  it('joins the object parts of an allOf', () => {
    const value = sample({ allOf: [{ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, { properties: { nights: { type: 'integer', minimum: 1, maximum: 3 } }, required: ['nights'] }] });
    expect(value).toEqual({ city: expect.stringMatching(CITY), nights: expect.any(Number) });
  });
});
