import {
  GraphQLError,
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  getNamedType,
  getNullableType,
  isCompositeType,
  isInterfaceType,
  isLeafType,
  isListType,
  isObjectType,
  type ASTNode,
  type ASTVisitor,
  type FieldNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { GatewayError } from '../errors/gateway-error';

/**
 * How big a GraphQL document may be, checked before anything runs: the
 * parser stops after `maxTokens` tokens, and the validation rules below
 * refuse an operation nested deeper than `maxDepth` fields, a document with
 * more than `maxAliases` aliases, and an operation that could return more
 * than `maxCost` objects. Each refusal is `query_too_complex` (400) with
 * `details.limit` naming the limit. The same limits hold over HTTP and over
 * graphql-ws.
 */
export interface QueryLimits {
  maxDepth: number;
  maxAliases: number;
  maxTokens: number;
  maxCost: number;
}

/**
 * The depth is 15: graphql-js's standard introspection query (what
 * graphql-codegen, Apollo's tools and the GraphQL IDEs send) is 15 fields
 * deep, `__schema` to the last `ofType` of a type reference; the depth
 * counts every field, introspection's included.
 */
export const QUERY_LIMITS: QueryLimits = { maxDepth: 15, maxAliases: 30, maxTokens: 5000, maxCost: 5000 };

/**
 * The validation rules that hold `limits` (the parser's `maxTokens` holds
 * the last one). `maxPageSize` is the largest `first` the API serves: what a
 * page whose size is a variable counts as.
 */
export function queryLimitRules(limits: QueryLimits, maxPageSize: number): ValidationRule[] {
  return [maxAliasesRule(limits.maxAliases), operationSizeRule(limits, maxPageSize)];
}

/** The parser's refusal of a document over `maxTokens`, as the gateway words it; undefined for any other error. */
export function tokenLimitRefusal(error: GraphQLError): GatewayError | undefined {
  // graphql-js words it "Document contains more that N tokens" (sic) in 16.x.
  const match = /Document contains more th\w* (\d+) tokens/.exec(error.message);
  if (!match) return undefined;
  const max = Number(match[1]);
  return tooComplex('tokens', max, undefined, `The document has more than ${max} tokens, the most the gateway parses. Ask for fewer fields or aliases, or split the document into several requests.`);
}

function tooComplex(limit: 'depth' | 'aliases' | 'tokens' | 'cost', maximum: number, actual: number | undefined, message: string): GatewayError {
  return new GatewayError('query_too_complex', message, { details: { limit, maximum, ...(actual === undefined ? {} : { actual }) } });
}

/** A validation error that carries its gateway refusal, which errors.ts formats as `query_too_complex`. */
function refusal(error: GatewayError, node: ASTNode): GraphQLError {
  return new GraphQLError(error.message, { nodes: [node], originalError: error });
}

/** Every aliased field of the document counts once: aliases are what let one request run a resolver many times. */
function maxAliasesRule(maxAliases: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    let aliases = 0;
    let firstOver: FieldNode | undefined;
    return {
      Field(node) {
        if (!node.alias) return;
        aliases++;
        if (aliases === maxAliases + 1) firstOver = node;
      },
      Document: {
        leave() {
          if (!firstOver) return;
          const message = `The document uses ${aliases} aliases; the gateway allows at most ${maxAliases}. Ask for fewer aliased fields, or split the document into several requests.`;
          context.reportError(refusal(tooComplex('aliases', maxAliases, aliases, message), firstOver));
        },
      },
    };
  };
}

/** The depth and the cost of each operation, fragments followed. */
function operationSizeRule(limits: QueryLimits, maxPageSize: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const walker = new OperationWalker(context, maxPageSize);
    return {
      OperationDefinition(node) {
        const name = node.name ? ` "${node.name.value}"` : '';
        const depth = walker.depth(node.selectionSet);
        if (depth > limits.maxDepth) {
          const message = `The operation${name} is ${depth} fields deep; the gateway allows at most ${limits.maxDepth}. Ask for fewer nested fields, or split the operation.`;
          context.reportError(refusal(tooComplex('depth', limits.maxDepth, depth, message), node));
        }
        const root = context.getSchema().getRootType(node.operation);
        const cost = walker.cost(node.selectionSet, root ?? undefined, undefined);
        if (cost > limits.maxCost) {
          const shown = Number.isFinite(cost) && cost < Number.MAX_SAFE_INTEGER ? cost : Number.MAX_SAFE_INTEGER;
          const message =
            `The operation${name} could return up to ${shown} objects; the gateway allows at most ${limits.maxCost}. ` +
            'Ask for smaller pages (first), fewer nested lists or fewer aliases, and fetch the rest with after.';
          context.reportError(refusal(tooComplex('cost', limits.maxCost, shown, message), node));
        }
        // Subscriptions and queries alike: nothing more to visit below an operation.
        return false;
      },
    };
  };
}

/**
 * Walks an operation's selections through its fragments. Each fragment's
 * result is kept, so a document that spreads fragments within fragments is
 * walked in time linear in its size; a fragment cycle (which
 * NoFragmentCyclesRule reports) is cut where it closes.
 */
class OperationWalker {
  private readonly schema: GraphQLSchema;
  private readonly fragmentDepths = new Map<string, number>();
  private readonly fragmentCosts = new Map<string, number>();
  private readonly onPath = new Set<string>();

  constructor(
    private readonly context: ValidationContext,
    private readonly maxPageSize: number,
  ) {
    this.schema = context.getSchema();
  }

  /**
   * Fields nested in the deepest path, the leaf counted: every field,
   * the introspection fields (`__schema`, `__type`, `ofType`) too.
   */
  depth(selectionSet: SelectionSetNode): number {
    let deepest = 0;
    for (const selection of selectionSet.selections) {
      let depth = 0;
      if (selection.kind === Kind.FIELD) {
        depth = 1 + (selection.selectionSet ? this.depth(selection.selectionSet) : 0);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        depth = this.depth(selection.selectionSet);
      } else {
        depth = this.throughFragment(selection.name.value, this.fragmentDepths, (fragment) => this.depth(fragment));
      }
      deepest = Math.max(deepest, depth);
    }
    return deepest;
  }

  /**
   * Objects the selection could return: every field of an object type
   * counts one object, times the size of the list it is in. A list's size
   * is the `first` argument of the field that holds it (a connection's
   * `first` sizes its `edges`): the literal value, at most the largest page
   * the API serves; that largest page when `first` is a variable; the
   * argument's default when it is left out. The federation `_entities`
   * list is sized by its `representations`: the references written in the
   * document, or that largest page when they come in a variable (the
   * resolver refuses more, see subgraph-schema.ts). A list nothing sizes
   * (the model listing, a record's line items) counts as one.
   */
  cost(selectionSet: SelectionSetNode, parentType: GraphQLCompositeType | undefined, listSize: number | undefined): number {
    let total = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        total += this.fieldCost(selection, parentType, listSize);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        total += this.cost(selection.selectionSet, this.typeCondition(selection.typeCondition?.name.value) ?? parentType, listSize);
      } else {
        const name = selection.name.value;
        const type = this.typeCondition(this.context.getFragment(name)?.typeCondition.name.value);
        total += this.throughFragment(`${name}:${listSize ?? ''}`, this.fragmentCosts, (fragment) => this.cost(fragment, type, listSize), name);
      }
      if (total >= Number.MAX_SAFE_INTEGER) return Number.MAX_SAFE_INTEGER;
    }
    return total;
  }

  private fieldCost(node: FieldNode, parentType: GraphQLCompositeType | undefined, listSize: number | undefined): number {
    const field = this.fieldDef(parentType, node.name.value);
    if (!field || !node.selectionSet) return 0;
    const named = getNamedType(field.type);
    if (isLeafType(named) || !isCompositeType(named)) return 0;
    const first = pageSize(field, node, this.maxPageSize) ?? referenceCount(field, node, this.maxPageSize);
    const isList = isListType(getNullableType(field.type));
    const times = isList ? (first ?? listSize ?? 1) : 1;
    return times * (1 + this.cost(node.selectionSet, named, isList ? undefined : first));
  }

  private fieldDef(parentType: GraphQLCompositeType | undefined, name: string): GraphQLField<unknown, unknown> | undefined {
    if (parentType && parentType === this.schema.getQueryType()) {
      if (name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef;
      if (name === TypeMetaFieldDef.name) return TypeMetaFieldDef;
    }
    return parentType && (isObjectType(parentType) || isInterfaceType(parentType)) ? parentType.getFields()[name] : undefined;
  }

  private typeCondition(name: string | undefined): GraphQLCompositeType | undefined {
    const type = name ? this.schema.getType(name) : undefined;
    return type && isCompositeType(type) ? type : undefined;
  }

  private throughFragment(key: string, results: Map<string, number>, walk: (selectionSet: SelectionSetNode) => number, name = key): number {
    const known = results.get(key);
    if (known !== undefined) return known;
    const fragment = this.context.getFragment(name);
    if (!fragment || this.onPath.has(name)) return 0;
    this.onPath.add(name);
    const result = walk(fragment.selectionSet);
    this.onPath.delete(name);
    results.set(key, result);
    return result;
  }
}

/** The page size a field's `first` argument asks for; undefined for a field without one. */
function pageSize(field: GraphQLField<unknown, unknown>, node: FieldNode, maxPageSize: number): number | undefined {
  const arg = field.args.find((a) => a.name === 'first');
  if (!arg) return undefined;
  const value = node.arguments?.find((a) => a.name.value === 'first')?.value;
  if (!value || value.kind === Kind.NULL) return typeof arg.defaultValue === 'number' ? Math.min(arg.defaultValue, maxPageSize) : maxPageSize;
  // Values out of range are refused by the resolver; a variable may hold anything up to the largest page.
  if (value.kind === Kind.INT) return Math.max(0, Math.min(Number(value.value), maxPageSize));
  return maxPageSize;
}

/** The references an `_entities` field asks for; undefined for a field without `representations`. */
function referenceCount(field: GraphQLField<unknown, unknown>, node: FieldNode, maxPageSize: number): number | undefined {
  if (!field.args.some((a) => a.name === 'representations')) return undefined;
  const value = node.arguments?.find((a) => a.name.value === 'representations')?.value;
  return value?.kind === Kind.LIST ? value.values.length : maxPageSize;
}
