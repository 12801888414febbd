import { Field, ID, ObjectType } from 'type-graphql';

/** The key a usage record was made with, as `KeyStore.summaries` reads it: never its secret. */
@ObjectType({ description: 'The key that made a request: its name and the first characters of its secret, never the secret itself.' })
export class UsageRecordKey {
  @Field(() => ID, { description: 'The key id; a temporary credential\'s own id for its requests.' })
  id!: string;

  @Field()
  name!: string;

  @Field({ description: 'First characters of the secret, to recognise the key.' })
  keyPrefix!: string;

  @Field(() => ID, { nullable: true, description: 'The key that minted it, when a temporary credential made the request.' })
  parentKeyId!: string | null;
}
