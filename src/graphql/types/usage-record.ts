import { GraphQLJSONObject, GraphQLSafeInt } from 'graphql-scalars';
import { Directive, Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { ENTITY_KEY } from './entity-key';

/**
 * The `usage.request` record of `GET /api/usage/requests/{id}`, as
 * `toUsageRecordView()` builds it for REST. Properties keep the view's
 * snake_case names and are exposed under camelCase GraphQL names, so the
 * resolvers return the REST views as they are.
 *
 * Money is integer micro-USD typed `SafeInt`: a JSON number, like REST's,
 * that is guaranteed exact. A value past 2^53 - 1 (a $9 billion request)
 * fails the field loudly instead of being rounded.
 */

@ObjectType({ description: 'Where the input and output figures came from: provider, local_estimate or unavailable.' })
export class UsageMeasurement {
  @Field()
  input!: string;

  @Field()
  output!: string;

  @Field(() => String, { nullable: true, description: 'Set when the reasoning share of the output was counted by the gateway.' })
  reasoning?: string | null;
}

@ObjectType({ description: 'A billable quantity: input, output, reasoning, cache_read, cache_write_5m, cache_write_1h, cache_miss, ...' })
export class UsageDimension {
  @Field()
  name!: string;

  @Field(() => Int)
  quantity!: number;

  @Field()
  unit!: string;
}

@ObjectType()
export class TokenUsage {
  @Field(() => Int, { name: 'promptTokens' })
  prompt_tokens!: number;

  @Field(() => Int, { name: 'completionTokens' })
  completion_tokens!: number;

  @Field(() => Int, { name: 'totalTokens' })
  total_tokens!: number;

  @Field(() => UsageMeasurement, { nullable: true, description: 'Missing on old records; absence does not prove a measured value.' })
  measurement!: UsageMeasurement | null;

  @Field(() => [UsageDimension])
  dimensions!: UsageDimension[];
}

@ObjectType()
export class BillingLineItem {
  @Field()
  dimension!: string;

  @Field(() => Int)
  quantity!: number;

  @Field(() => Float, { name: 'unitMicrousd', description: 'Price of one unit in micro-USD; fractional for per-token prices.' })
  unit_microusd!: number;

  @Field(() => GraphQLSafeInt, { name: 'amountMicrousd', description: 'quantity x unit price, rounded half up, in micro-USD.' })
  amount_microusd!: number;
}

@ObjectType()
export class Billing {
  @Field()
  currency!: string;

  @Field(() => GraphQLSafeInt, { name: 'amountMicrousd', description: 'The exact sum of the line items, in micro-USD.' })
  amount_microusd!: number;

  @Field(() => Int, { name: 'pricingVersion' })
  pricing_version!: number;

  @Field(() => [BillingLineItem], { name: 'lineItems' })
  line_items!: BillingLineItem[];

  @Field({ description: '`final`; for tasks `held` (until the task ends), then `settled` or `refunded`.' })
  state!: string;

  @Field(() => GraphQLSafeInt, { name: 'heldMicrousd', nullable: true, description: 'For tasks: the amount held at submission.' })
  held_microusd?: number | null;

  @Field(() => Int, { name: 'settledAt', nullable: true, description: 'For tasks: Unix seconds the hold was settled or refunded.' })
  settled_at?: number | null;
}

@ObjectType({ description: 'Public status and timing; which provider served the request stays internal.' })
export class UsageRecordRouting {
  @Field(() => Int, { name: 'statusCode' })
  status_code!: number;

  @Field(() => Int, { name: 'totalDurationMs' })
  total_duration_ms!: number;

  @Field(() => Int, { name: 'ttftMs', nullable: true, description: 'Time to the first token of a streamed answer.' })
  ttft_ms!: number | null;

  @Field({ name: 'wasStreaming' })
  was_streaming!: boolean;
}

@ObjectType({ description: 'Usage exactly as the upstream reported it.' })
export class ProviderUsage {
  @Field()
  family!: string;

  @Field(() => GraphQLJSONObject, { name: 'rawFields' })
  raw_fields!: Record<string, unknown>;
}

@ObjectType({ description: 'A search backend left out of a search, or one that failed before another answered.' })
export class SearchRejection {
  @Field({ description: 'The backend id (or provider name, for a provider not configured).' })
  backend!: string;

  @Field(() => String, { nullable: true })
  provider!: string | null;

  @Field()
  reason!: string;
}

@ObjectType({ description: 'How a search was routed, as the client received it in `route_receipt`.' })
export class SearchRouteReceipt {
  @Field({ description: '`auto`, or `named` when the request named a backend or provider.' })
  selection!: string;

  @Field(() => String, { name: 'selectedBackend', nullable: true })
  selected_backend!: string | null;

  @Field(() => String, { name: 'choseProvider', nullable: true })
  chose_provider!: string | null;

  @Field(() => [String], { description: 'Backend ids in the order they were to be tried.' })
  candidates!: string[];

  @Field(() => [SearchRejection])
  rejected!: SearchRejection[];

  @Field({ description: 'The backend that answered lacks a feature the request preferred.' })
  downgraded!: boolean;

  @Field(() => Int, { name: 'fallbackCount' })
  fallback_count!: number;

  @Field({ name: 'decisionReason' })
  decision_reason!: string;
}

@ObjectType({ description: 'What a web search request was answered with: queries, billed units, the backend and the route receipt.' })
export class SearchUsage {
  @Field(() => String, { nullable: true, description: 'The provider that answered; null when none did.' })
  backend!: string | null;

  @Field(() => Int, { name: 'webSearchRequests' })
  web_search_requests!: number;

  @Field(() => Int, { name: 'webSearchBillableUnits' })
  web_search_billable_units!: number;

  @Field(() => SearchRouteReceipt, { name: 'routeReceipt' })
  route_receipt!: SearchRouteReceipt;
}

@ObjectType({ description: "A decision request's stage: question generation or evaluation, each with its own record." })
export class DecisionStage {
  @Field({ description: '`question_generation` or `evaluation`.' })
  stage!: string;

  @Field({ name: 'promptVersion' })
  prompt_version!: string;

  @Field(() => String, { name: 'linkedRequestId', nullable: true, description: "The other stage's record." })
  linked_request_id!: string | null;

  @Field(() => String, { nullable: true, description: 'For an evaluation: `explicit` or `generated` questions.' })
  questions?: string | null;
}

@ObjectType({ description: 'An MCP tool call through /mcp: the server and tool it named, and how it went.' })
export class McpToolCall {
  @Field({ description: 'The upstream MCP server, as the catalog names it.' })
  server!: string;

  @Field({ description: "The tool's name on its server (clients call it as `<server>__<tool>`)." })
  tool!: string;

  @Field({ description: '`ok`, `tool_error` (the tool answered with isError) or `failed` (no answer).' })
  outcome!: string;
}

@Directive(ENTITY_KEY)
@ObjectType({ description: 'The usage and billing record of one request, readable only by the key that made it.' })
export class UsageRecord {
  @Field(() => ID, { description: 'The request id (the X-Svc-Request-Id header).' })
  id!: string;

  @Field(() => Int, { name: 'createdAt', description: 'Unix seconds.' })
  created_at!: number;

  @Field({ description: 'The model or route name the request asked for.' })
  model!: string;

  @Field()
  endpoint!: string;

  @Field(() => TokenUsage)
  usage!: TokenUsage;

  @Field(() => Billing)
  billing!: Billing;

  @Field(() => UsageRecordRouting, { nullable: true, description: 'Public status and timing only.' })
  routing!: UsageRecordRouting | null;

  @Field(() => String, { nullable: true, description: '`sent`: the whole response was handed to the connection; `client_gone`: the client left before its end. Null when the record has no routing.' })
  delivery!: string | null;

  @Field(() => ProviderUsage, { name: 'providerUsage' })
  provider_usage!: ProviderUsage;

  @Field({ name: 'logId' })
  log_id!: string;

  @Field(() => SearchUsage, { nullable: true, description: 'Set on web search requests.' })
  search?: SearchUsage | null;

  @Field(() => DecisionStage, { nullable: true, description: 'Set on decision requests.' })
  decision?: DecisionStage | null;

  @Field(() => McpToolCall, { nullable: true, description: 'Set on MCP tool calls (endpoint `/mcp`).' })
  mcp?: McpToolCall | null;
}
