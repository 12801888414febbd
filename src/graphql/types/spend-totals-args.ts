import { GraphQLDateTimeISO } from 'graphql-scalars';
import { ArgsType, Field } from 'type-graphql';
import { SpendGroupBy } from './spend-totals';

@ArgsType()
export class SpendTotalsArgs {
  @Field(() => [SpendGroupBy], { description: '1 to 3 groupings.' })
  groupBy!: SpendGroupBy[];

  @Field(() => GraphQLDateTimeISO, { nullable: true, description: 'Inclusive; default 30 days before `to`.' })
  from?: Date | null;

  @Field(() => GraphQLDateTimeISO, { nullable: true, description: 'Exclusive; default now. At most 366 days after `from`.' })
  to?: Date | null;
}
