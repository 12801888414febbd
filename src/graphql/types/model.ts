import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import { ENTITY_KEY } from './entity-key';

/**
 * A `GET /v1/models` record, as `modelRecord()` and `policyRecord()` build it
 * for REST. Properties keep the record's snake_case names and are exposed
 * under camelCase GraphQL names, so resolvers return the REST records as they are.
 */
@Directive(ENTITY_KEY)
@ObjectType({ description: 'A model or route policy the calling key may use, as GET /v1/models lists it.' })
export class Model {
  @Field(() => ID)
  id!: string;

  @Field({ name: 'ownedBy', description: 'The provider or owner label; "gateway-route" for a route policy.' })
  owned_by!: string;

  @Field(() => Int, { description: 'Unix seconds when the catalog was loaded.' })
  created!: number;
}
