import { GraphQLDateTimeISO, GraphQLSafeInt } from 'graphql-scalars';
import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';

/**
 * The spend totals of `GET /api/usage/totals`, as `SpendTotals.totals()`
 * builds them for REST: snake_case properties under camelCase GraphQL names,
 * so the resolver returns the REST view as it is. Counts and money are
 * `SafeInt`, like usage records' amounts: exact JSON numbers, and a loud
 * failure rather than a rounded one past 2^53 - 1.
 */

/** What a key may group its own spend by; the values are the REST `group_by` words. */
export enum SpendGroupBy {
  MODEL = 'model',
  DAY = 'day',
  ENDPOINT = 'endpoint',
  STATUS = 'status',
}

registerEnumType(SpendGroupBy, { name: 'SpendGroup', description: 'A grouping of spend totals: model, UTC day, endpoint or response status.' });

@ObjectType({ description: 'Requests, tokens and micro-USD charged.' })
export class SpendFigures {
  @Field(() => GraphQLSafeInt)
  requests!: number;

  @Field(() => GraphQLSafeInt, { name: 'promptTokens' })
  prompt_tokens!: number;

  @Field(() => GraphQLSafeInt, { name: 'completionTokens' })
  completion_tokens!: number;

  @Field(() => GraphQLSafeInt, { name: 'amountMicrousd', description: 'The exact sum of the records\' charges, in micro-USD.' })
  amount_microusd!: number;
}

@ObjectType({ description: 'One group of spend totals; only the groupings asked for are set.' })
export class SpendTotalsRow extends SpendFigures {
  @Field(() => String, { nullable: true })
  model?: string | null;

  @Field(() => String, { nullable: true, description: 'The UTC date, YYYY-MM-DD.' })
  day?: string | null;

  @Field(() => String, { nullable: true })
  endpoint?: string | null;

  @Field(() => Int, { nullable: true, description: 'The HTTP status the request was answered with.' })
  status?: number | null;
}

@ObjectType({ description: "The calling key's spend in a time range, grouped, sorted by day then model." })
export class SpendTotals {
  @Field(() => [SpendGroupBy], { name: 'groupBy' })
  group_by!: SpendGroupBy[];

  @Field(() => GraphQLDateTimeISO, { description: 'Inclusive.' })
  from!: string;

  @Field(() => GraphQLDateTimeISO, { description: 'Exclusive.' })
  to!: string;

  @Field(() => [SpendTotalsRow])
  data!: SpendTotalsRow[];

  @Field(() => SpendFigures)
  total!: SpendFigures;
}
