import type { UsageRecorder } from '../billing/usage-recorder';
import type { Catalog } from '../catalog/catalog';
import type { ChatService } from '../chat/chat-service';
import type { CredentialServices } from '../credentials/mint-credential';
import type { FileService } from '../files/file-service';
import type { KeyAuthenticator } from '../keys/key-authenticator';
import type { KeyStore } from '../keys/key-store';
import type { RateLimits } from '../limits/rate-limits';
import type { Principal } from '../keys/principal';
import type { Logger } from '../observability/logger';
import type { SpendTotals } from '../usage/spend-totals';
import type { UsageQueries } from '../usage/usage-queries';
import type { VideoService } from '../videos/video-service';
import type { OpenStreams } from './open-streams';
import { OperationLoaders } from './operation-loaders';
import type { TaskUpdateBus } from './task-update-bus';

/**
 * What GraphQL needs of the gateway's services: the same ones the REST
 * routes call. GraphQL declares this slice; the composition root's
 * services (gateway/services.ts) satisfy it, and are not shaped by it.
 */
export interface GraphqlServices {
  catalog: Catalog;
  keys: KeyStore;
  /** The secret of a graphql-ws connection and of each of its operations -> its principal. */
  authenticator: KeyAuthenticator;
  chat: ChatService;
  videos: VideoService;
  usage: UsageQueries;
  spend: SpendTotals;
  files: FileService;
  /** Temporary credentials and the budgets over a key. */
  credentials: CredentialServices;
  recorder: UsageRecorder;
  /** Requests and tokens per minute, for the chatCompletion subscription; without it nothing is counted. */
  rateLimits?: RateLimits;
  logger: Logger;
}

/** What every GraphQL operation shares, whichever transport (HTTP, graphql-ws) it came over. */
export interface GraphqlShared {
  services: GraphqlServices;
  /** Where task updates arrive, by key (see task-update-bus.ts). */
  taskUpdates: TaskUpdateBus;
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
  /** This operation's batch loaders, for the calling key (see operation-loaders.ts). */
  loaders: OperationLoaders;
  /** Over graphql-ws, fires when the operation ends (the client completed it, the socket closed): what it awaits should stop. */
  signal?: AbortSignal;
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
    loaders: new OperationLoaders(shared.services, principal),
  };
}
