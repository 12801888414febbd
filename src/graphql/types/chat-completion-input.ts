import { GraphQLJSON } from 'graphql-scalars';
import { Field, Float, InputType, Int } from 'type-graphql';

/**
 * The fields of a chat completion request a subscription may set. JSON
 * fields are checked by the chat service, with the same rules and messages
 * as POST /v1/chat/completions, not by GraphQL.
 */
@InputType({ description: 'A chat completion request, in the fields of POST /v1/chat/completions.' })
export class ChatCompletionInput {
  @Field({ description: 'A model id or route name.' })
  model!: string;

  @Field(() => GraphQLJSON, { description: 'The OpenAI messages array.' })
  messages!: unknown;

  @Field(() => GraphQLJSON, { nullable: true, description: 'OpenAI function tools.' })
  tools?: unknown;

  @Field(() => GraphQLJSON, { nullable: true, description: '"auto", "none", "required" or a named function.' })
  toolChoice?: unknown;

  @Field(() => GraphQLJSON, { nullable: true, description: 'A json_object or json_schema response format.' })
  responseFormat?: unknown;

  @Field(() => Float, { nullable: true })
  temperature?: number | null;

  @Field(() => Float, { nullable: true })
  topP?: number | null;

  @Field(() => Int, { nullable: true })
  maxTokens?: number | null;

  @Field(() => GraphQLJSON, { nullable: true, description: 'Reasoning controls: { effort, max_tokens }.' })
  reasoning?: unknown;
}
