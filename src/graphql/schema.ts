import type { GraphQLSchema } from 'graphql';
import { buildSchema, type PubSub } from 'type-graphql';
import { CatalogResolver } from './resolvers/catalog-resolver';
import { ChatCompletionResolver } from './resolvers/chat-completion-resolver';
import { TaskResolver } from './resolvers/task-resolver';
import { UsageResolver } from './resolvers/usage-resolver';

/**
 * The gateway's GraphQL schema. `pubSub` carries the events of topic-based
 * subscriptions (task updates); chat streams come from the chat service itself.
 */
export function buildGatewaySchema(pubSub: PubSub): Promise<GraphQLSchema> {
  return buildSchema({ resolvers: [CatalogResolver, UsageResolver, ChatCompletionResolver, TaskResolver], pubSub, validate: false });
}
