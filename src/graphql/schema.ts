import type { GraphQLSchema } from 'graphql';
import { buildSchema, type PubSub } from 'type-graphql';
import { CatalogResolver } from './resolvers/catalog-resolver';
import { ChatCompletionResolver } from './resolvers/chat-completion-resolver';
import { FileResolver } from './resolvers/file-resolver';
import { TaskResolver } from './resolvers/task-resolver';
import { SpendControlResolver } from './resolvers/spend-control-resolver';
import { SpendTotalsResolver } from './resolvers/spend-totals-resolver';
import { UsageRecordFieldsResolver } from './resolvers/usage-record-fields-resolver';
import { UsageResolver } from './resolvers/usage-resolver';

/**
 * The gateway's GraphQL schema, as type-graphql builds it: the public SDL
 * of `schema.graphql`. /graphql serves it as a federation subgraph
 * (subgraph-schema.ts). Every subscription brings its own source
 * (`subscribe`): task updates from the task update bus, chat streams from
 * the chat service.
 */
export function buildGatewaySchema(): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers: [CatalogResolver, UsageResolver, UsageRecordFieldsResolver, SpendTotalsResolver, SpendControlResolver, ChatCompletionResolver, TaskResolver, FileResolver],
    pubSub: NO_TOPICS,
    validate: false,
  });
}

/** type-graphql asks for a topic pub/sub whenever a schema has subscriptions; none of the gateway's uses topics. */
const NO_TOPICS: PubSub = {
  publish() {
    throw new Error('the gateway publishes task updates on the task update bus, not on GraphQL topics');
  },
  subscribe() {
    throw new Error('every gateway subscription brings its own source (subscribe), not a GraphQL topic');
  },
}
