import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import { ENTITY_KEY } from './entity-key';

/**
 * A `GET /api/models/catalog` entry, as `catalogEntry()` builds it for REST.
 * Properties keep the entry's snake_case names and are exposed under
 * camelCase GraphQL names, so the resolver returns the REST entries as they are.
 */

@ObjectType({ description: 'An endpoint path the model serves.' })
export class SupportedEndpoint {
  @Field()
  path!: string;

  @Field({ description: '"native" where the upstream speaks the path\'s protocol, "stateless_bridge" where the gateway translates it.' })
  mode!: string;
}

@ObjectType({ description: 'Which optional request parameters the model supports.' })
export class ModelParameters {
  @Field()
  tools!: boolean;

  @Field({ name: 'toolChoice' })
  tool_choice!: boolean;

  @Field({ name: 'responseFormat' })
  response_format!: boolean;

  @Field()
  streaming!: boolean;

  @Field({ description: 'Whether image input is accepted.' })
  vision!: boolean;

  @Field(() => GraphQLJSON, {
    nullable: true,
    description: 'Reasoning controls for reasoning models: { default, effort, efforts, max_tokens, min_budget, max_budget, can_disable, thinking_suffix, control, returns_text }.',
  })
  reasoning!: unknown;
}

@ObjectType()
export class Modalities {
  @Field(() => [String])
  input!: string[];

  @Field(() => [String])
  output!: string[];
}

@ObjectType()
export class EmbeddingInfo {
  @Field(() => Int)
  dimensions!: number;

  @Field(() => Int, { name: 'maxInputs', description: 'Most inputs in one embeddings request.' })
  max_inputs!: number;

  @Field(() => [Int], { name: 'allowedDimensions', nullable: true, description: 'The `dimensions` lengths it takes; null when it takes any length from 1 to `dimensions`.' })
  allowed_dimensions!: number[] | null;
}

@ObjectType()
export class CacheInfo {
  @Field({ name: 'promptCaching' })
  prompt_caching!: boolean;

  @Field(() => [String], { name: 'pricedDimensions', description: 'Cache usage dimensions with a price of their own: cache_read, cache_write_5m, cache_write_1h, cache_miss.' })
  priced_dimensions!: string[];
}

@ObjectType({ description: 'The lanes a model is served on and how many routes back it; never which provider serves a lane.' })
export class CatalogRouting {
  @Field(() => [String])
  lanes!: string[];

  @Field(() => Int)
  routes!: number;
}

@ObjectType()
export class CatalogPricing {
  @Field()
  currency!: string;

  @Field(() => Int, { description: 'The price table version usage records are billed at.' })
  version!: number;

  @Field(() => GraphQLJSONObject, {
    description: 'Per lane, per usage dimension: { usd, per, unit_microusd }, exactly as GET /api/models/catalog gives it.',
  })
  lanes!: Record<string, unknown>;
}

@Directive(ENTITY_KEY)
@ObjectType({ description: 'What a client needs to pick a model and call it correctly, scoped to the calling key.' })
export class CatalogEntry {
  @Field(() => ID)
  id!: string;

  @Field({ name: 'ownedBy' })
  owned_by!: string;

  @Field()
  family!: string;

  @Field(() => [String], { name: 'supportedEndpointTypes', description: 'chat, embeddings, responses, decisions, videos.' })
  supported_endpoint_types!: string[];

  @Field(() => [SupportedEndpoint], { name: 'supportedEndpoints' })
  supported_endpoints!: SupportedEndpoint[];

  @Field(() => ModelParameters)
  parameters!: ModelParameters;

  @Field(() => Int, { name: 'contextWindow' })
  context_window!: number;

  @Field(() => Int, { name: 'maxInputTokens' })
  max_input_tokens!: number;

  @Field(() => Int, { name: 'maxOutputTokens', nullable: true })
  max_output_tokens!: number | null;

  @Field(() => Modalities)
  modalities!: Modalities;

  @Field(() => EmbeddingInfo, { nullable: true, description: 'Set for embedding models.' })
  embedding!: EmbeddingInfo | null;

  @Field(() => GraphQLJSON, { name: 'decisionCapabilities', nullable: true, description: 'Set for decision models.' })
  decision_capabilities!: unknown;

  @Field(() => Int, { name: 'maxStateBytes', nullable: true, description: 'Largest decision state, for decision models.' })
  max_state_bytes!: number | null;

  @Field(() => CacheInfo)
  cache!: CacheInfo;

  @Field(() => CatalogRouting)
  routing!: CatalogRouting;

  @Field(() => CatalogPricing)
  pricing!: CatalogPricing;
}
