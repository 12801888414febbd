import type { PubSub } from 'type-graphql';
import type { GatewayServices } from '../gateway';
import type { Principal } from '../keys/principal';
import type { Logger } from '../observability/logger';
import type { OpenStreams } from './open-streams';

/** What every GraphQL operation shares, whichever transport (HTTP, graphql-ws) it came over. */
export interface GraphqlShared {
  services: GatewayServices;
  /** Where task updates arrive (see task-events.ts). */
  pubSub: PubSub;
  /** Unix seconds the catalog was loaded: the `created` of every model record. */
  catalogLoadedAt: number;
  openStreams: OpenStreams;
  /** True once the gateway is shutting down: no new subscriptions then. */
  isDraining: () => boolean;
}

/** One operation's identity: its gateway request id and when it arrived. */
export interface OperationRequest {
  requestId: string;
  createdAt: Date;
  /** `performance.now()` at arrival, for durations. */
  startedAt: number;
}

/** The context of one GraphQL operation (a query, or one subscription), made for an authenticated key. */
export interface GraphqlContext extends GraphqlShared, OperationRequest {
  principal: Principal;
  logger: Logger;
}

export function operationContext(shared: GraphqlShared, principal: Principal, request: OperationRequest): GraphqlContext {
  const { logger } = shared.services;
  return {
    ...shared,
    requestId: request.requestId,
    createdAt: request.createdAt,
    startedAt: request.startedAt,
    principal,
    logger: logger.enabled('warn') ? logger.child({ request_id: request.requestId }) : logger,
  };
}
