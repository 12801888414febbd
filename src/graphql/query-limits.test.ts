import { buildSchema, getIntrospectionQuery, GraphQLError, parse, specifiedRules, validate } from 'graphql';
import { GatewayError } from '../errors/gateway-error';
import { QUERY_LIMITS, queryLimitRules, tokenLimitRefusal } from './query-limits';

/** A schema with cycles, which the gateway's has none of (yet): only the limits bound these documents. */
const schema = buildSchema(`
  type Query { node: Node, nodes(first: Int = 10): NodeConnection!, all: [Node!]!, _entities(representations: [_Any!]!): [_Entity]!, _service: _Service! }
  scalar _Any
  type _Service { sdl: String }
  union _Entity = Node
  type Subscription { changed: Node! }
  type Node { id: ID!, parent: Node, children(first: Int = 10): NodeConnection!, tags: [Tag!]! }
  type NodeConnection { edges: [Edge!]!, pageInfo: PageInfo! }
  type Edge { cursor: String!, node: Node! }
  type PageInfo { hasNextPage: Boolean! }
  type Tag { name: String! }
`);

const rules = [...specifiedRules, ...queryLimitRules(QUERY_LIMITS, 100)];

/** The gateway refusals among the validation errors, as `limit: actual`. */
function refusals(document: string): Array<Record<string, unknown>> {
  return validate(schema, parse(document), rules)
    .map((error) => error.originalError)
    .filter((cause): cause is GatewayError => cause instanceof GatewayError)
    .map((cause) => {
      expect(cause.code).toBe('query_too_complex');
      return cause.options.details!;
    });
}

function allErrors(document: string): readonly GraphQLError[] {
  return validate(schema, parse(document), rules);
}

const nested = (depth: number) => `{ node { ${'parent { '.repeat(depth - 2)}id${' }'.repeat(depth - 2)} } }`;

describe('GraphQL query limits', () => {
  describe('depth', () => {
    it('allows 15 fields deep and refuses 16', () => {
      expect(allErrors(nested(15))).toEqual([]);
      expect(refusals(nested(16))).toEqual([{ limit: 'depth', maximum: 15, actual: 16 }]);
    });

    it('follows fragments and inline fragments', () => {
      const viaFragments = `
        query { node { ...A } }
        fragment A on Node { parent { ... on Node { parent { ...B } } } }
        fragment B on Node { parent { parent { parent { parent { parent { parent { parent { parent { parent { parent { parent { parent { id } } } } } } } } } } } } }`;
      expect(refusals(viaFragments)).toEqual([{ limit: 'depth', maximum: 15, actual: 16 }]);
    });

    it('counts introspection fields: an ofType chain past the limit is refused', () => {
      const chain = (n: number) => `{ __type(name: "Node") { ${'ofType { '.repeat(n - 2)}name${' }'.repeat(n - 2)} } }`;
      expect(refusals(chain(50))).toEqual([{ limit: 'depth', maximum: 15, actual: 50 }]);
      expect(refusals('{ __schema { types { fields { type { ...Deep } } } } } fragment Deep on __Type { ofType { ofType { ofType { ofType { ofType { ofType { ofType { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } } } } }'))
        .toEqual([{ limit: 'depth', maximum: 15, actual: 17 }]);
    });

    it('lets the standard introspection queries, the console\'s and the federation SDL query through', () => {
      expect(allErrors(getIntrospectionQuery())).toEqual([]);
      const everyOption = { descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true };
      expect(allErrors(getIntrospectionQuery(everyOption))).toEqual([]);
      expect(allErrors('{ __type(name: "Query") { fields { name args { name type { kind name ofType { kind name } } } } } }')).toEqual([]);
      expect(allErrors('{ _service { sdl } }')).toEqual([]);
    });

    it('keeps graphql-js\'s own introspection depth rule for cycles', () => {
      const cyclic = '{ __schema { types { fields { type { fields { type { fields { type { name } } } } } } } } }';
      expect(allErrors(cyclic).map((e) => e.message)).toEqual([expect.stringContaining('Maximum introspection depth exceeded')]);
    });
  });

  describe('aliases', () => {
    const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: node { id }`).join(' ')} }`;

    it('allows 30 and refuses 31, in the operation or its fragments', () => {
      expect(allErrors(aliases(30))).toEqual([]);
      expect(refusals(aliases(31))).toEqual([{ limit: 'aliases', maximum: 30, actual: 31 }]);
      const inFragment = `{ x: node { ...F } } fragment F on Node { ${Array.from({ length: 30 }, (_, i) => `p${i}: parent { id }`).join(' ')} }`;
      expect(refusals(inFragment)).toEqual([{ limit: 'aliases', maximum: 30, actual: 31 }]);
    });
  });

  describe('cost', () => {
    it('multiplies the objects under a connection by its first', () => {
      // 1 connection + 50 × (edge + node)
      expect(allErrors('{ nodes(first: 50) { edges { node { id } } pageInfo { hasNextPage } } }')).toEqual([]);
      // 1 + 100 × (edge + node + (1 + 100 × (edge + node))) = 1 + 100 × 203
      expect(refusals('{ nodes(first: 100) { edges { node { children(first: 100) { edges { node { id } } } } } } }')).toEqual([
        { limit: 'cost', maximum: 5000, actual: 20301 },
      ]);
    });

    it('counts the argument\'s default when first is left out, and the largest page when it is a variable', () => {
      // 1 + 10 × (1 + 1 + (1 + 10 × 2)) = 231 with the defaults
      expect(allErrors('{ nodes { edges { node { children { edges { node { id } } } } } } }')).toEqual([]);
      expect(refusals('query ($n: Int, $m: Int) { nodes(first: $n) { edges { node { children(first: $m) { edges { node { id } } } } } } }')).toEqual([
        { limit: 'cost', maximum: 5000, actual: 20301 },
      ]);
    });

    it('counts a list without first as one, and subscriptions like queries', () => {
      expect(allErrors('{ all { tags { name } parent { tags { name } } } }')).toEqual([]);
      expect(refusals('subscription { changed { children(first: 100) { edges { node { children(first: 100) { edges { node { id } } } } } } } }')).toEqual([
        { limit: 'cost', maximum: 5000, actual: 20302 },
      ]);
    });

    it('multiplies the objects of an _entities call by its references, a page of them when they come in a variable', () => {
      const selection = '{ ... on Node { children(first: 100) { edges { node { id } } } } }';
      // 3 × (entity + (1 + 100 × (edge + node)))
      expect(allErrors(`{ _entities(representations: [{ __typename: "Node", id: "1" }, { __typename: "Node", id: "2" }, { __typename: "Node", id: "3" }]) ${selection} }`)).toEqual([]);
      expect(refusals(`query ($r: [_Any!]!) { _entities(representations: $r) ${selection} }`)).toEqual([{ limit: 'cost', maximum: 5000, actual: 20200 }]);
      expect(allErrors('query ($r: [_Any!]!) { _entities(representations: $r) { ... on Node { id tags { name } } } }')).toEqual([]);
    });

    it('walks fragments that double at every level in linear time', () => {
      const levels = 60;
      const fragments = Array.from({ length: levels }, (_, i) =>
        i === levels - 1 ? `fragment F${i} on Node { id }` : `fragment F${i} on Node { parent { ...F${i + 1} } children(first: 2) { edges { node { ...F${i + 1} } } } }`,
      );
      const started = Date.now();
      const found = refusals(`{ node { ...F0 } } ${fragments.join(' ')}`);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(found).toContainEqual(expect.objectContaining({ limit: 'cost', maximum: 5000 }));
    });

    it('survives a fragment cycle, which graphql-js reports', () => {
      const errors = allErrors('{ node { ...A } } fragment A on Node { parent { ...B } } fragment B on Node { parent { ...A } }');
      expect(errors.map((e) => e.message)).toContainEqual(expect.stringContaining('Cannot spread fragment "A" within itself'));
    });
  });

  describe('tokens', () => {
    it('words the parser\'s token limit as a gateway refusal', () => {
      let error: unknown;
      try {
        parse('{ a b c d e f g }', { maxTokens: 5 });
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(GraphQLError);
      const refusal = tokenLimitRefusal(error as GraphQLError)!;
      expect(refusal.code).toBe('query_too_complex');
      expect(refusal.message).toContain('more than 5 tokens');
      expect(refusal.options.details).toEqual({ limit: 'tokens', maximum: 5 });
      expect(tokenLimitRefusal(new GraphQLError('Syntax Error: Expected Name, found <EOF>.'))).toBeUndefined();
    });
  });
});
