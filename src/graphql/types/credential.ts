import { GraphQLDateTimeISO, GraphQLSafeInt } from 'graphql-scalars';
import { Directive, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { BudgetNode } from './budget';
import { ENTITY_KEY } from './entity-key';

@Directive(ENTITY_KEY)
@ObjectType('Credential', { description: 'A temporary credential the calling key minted: never wider than the key.' })
export class CredentialNode {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field({ description: 'First characters of the secret.' })
  keyPrefix!: string;

  @Field(() => [String], { description: 'Models it may use; empty: every model the key may use.' })
  models!: string[];

  @Field(() => [String], { description: 'Search result domains; empty: every domain the key may receive.' })
  allowedDomains!: string[];

  @Field(() => [String], { nullable: true, description: 'MCP tools (names or patterns) it may use through /mcp, within the key\'s; null: those the key may use.' })
  mcpTools!: string[] | null;

  @Field(() => GraphQLDateTimeISO)
  expiresAt!: Date;

  @Field(() => GraphQLDateTimeISO, { nullable: true })
  revokedAt!: Date | null;

  @Field(() => GraphQLDateTimeISO)
  createdAt!: Date;
}

@ObjectType({ description: 'A credential just minted: its secret is shown this once.' })
export class MintedCredential extends CredentialNode {
  @Field({ description: 'The secret: use it as a key (Authorization: Bearer ...).' })
  key!: string;

  @Field(() => BudgetNode, { nullable: true, description: 'Its own hard total budget, when one was asked for.' })
  budget!: BudgetNode | null;
}

@InputType({ description: 'What to mint: the same fields as POST /api/credentials.' })
export class CreateCredentialInput {
  @Field({ nullable: true })
  name?: string;

  @Field(() => Int, { nullable: true, description: 'Seconds it lives: 60 to 604800 (7 days), 3600 when not given; never past the key\'s own expiry.' })
  expiresIn?: number;

  @Field(() => [String], { nullable: true, description: 'Models it may use, among the key\'s own.' })
  models?: string[];

  @Field(() => GraphQLSafeInt, { nullable: true, description: 'A hard total budget of its own, in micro-USD.' })
  budgetMicrousd?: number;

  @Field(() => [String], { nullable: true, description: 'Search result domains it may receive.' })
  allowedDomains?: string[];

  @Field(() => [String], { nullable: true, description: 'MCP tools (names or patterns) it may use, each within the key\'s own (a wider one is refused); left out: the key\'s.' })
  mcpTools?: string[];
}
