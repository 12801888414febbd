import { GraphQLDateTimeISO, GraphQLSafeInt } from 'graphql-scalars';
import { Directive, Field, ID, ObjectType } from 'type-graphql';
import type { BudgetView } from '../../billing/budget-store';
import { ENTITY_KEY } from './entity-key';

/** A budget over the calling key (the REST admin budget view, camel-cased): its own, its project's, its member's or its account's. */
@Directive(ENTITY_KEY)
@ObjectType('Budget', { description: "A spending limit over the calling key, with the current period's figures in micro-USD." })
export class BudgetNode {
  @Field(() => ID)
  id!: string;

  @Field({ description: 'key, project, member or account.' })
  scope!: string;

  @Field({ description: 'The key, project, member or account id.' })
  scopeId!: string;

  @Field({ description: 'total, monthly or daily (UTC).' })
  period!: string;

  @Field({ description: 'hard (refuses a call that could pass it) or soft (lets it through).' })
  mode!: string;

  @Field(() => GraphQLSafeInt)
  limitMicrousd!: number;

  @Field(() => GraphQLDateTimeISO, { description: 'Start of the current period.' })
  periodStart!: Date;

  @Field(() => GraphQLSafeInt, { description: 'Charged in the current period.' })
  spentMicrousd!: number;

  @Field(() => GraphQLSafeInt, { description: 'Held by calls in flight.' })
  heldMicrousd!: number;

  @Field(() => GraphQLSafeInt)
  remainingMicrousd!: number;
}

/** The REST budget view as this type. */
export function budgetNode(b: BudgetView): BudgetNode {
  return {
    id: b.id, scope: b.scope, scopeId: b.scope_id, period: b.period, mode: b.mode, limitMicrousd: b.limit_microusd,
    periodStart: new Date(b.period_start), spentMicrousd: b.spent_microusd, heldMicrousd: b.held_microusd, remainingMicrousd: b.remaining_microusd,
  };
}
