import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { AccountAdmin } from '../admin/account-admin';
import { KeyAdmin } from '../admin/key-admin';
import { McpServerAdmin } from '../admin/mcp-server-admin';
import { SpendAdmin } from '../admin/spend-admin';
import { BudgetStore } from '../billing/budget-store';
import { HoldPlacer } from '../billing/hold-placer';
import { Ledger } from '../billing/ledger';
import { SpendGuard } from '../billing/spend-guard';
import { SpendLeases } from '../billing/spend-leases';
import { SpendLeaseStore } from '../billing/spend-lease-store';
import { DEFAULT_LEASE_SIZING } from '../billing/lease-sizing';
import { UsageRecorder } from '../billing/usage-recorder';
import { UsageSpool } from '../billing/usage-spool';
import { UsageWriter } from '../billing/usage-writer';
import { WalletStore } from '../billing/wallet-store';
import type { Catalog } from '../catalog/catalog';
import { CatalogSync } from '../catalog/catalog-sync';
import { ChatService } from '../chat/chat-service';
import type { GatewayEnv } from '../config/env';
import type { LoadedConfig } from '../config/load-config';
import type { CredentialServices } from '../credentials/mint-credential';
import type { Database } from '../db/database';
import { DecisionService } from '../decisions/decision-service';
import { DECISION_TIME_LIMITS } from '../decisions/decision-time-limits';
import { QuestionGenerator } from '../decisions/question-generation';
import { EmbeddingsService } from '../embeddings/embeddings-service';
import { GenerateContentService } from '../generate-content/generate-content-service';
import { FileService } from '../files/file-service';
import { FileStore } from '../files/file-store';
import type { FileStorage } from '../files/storage/file-storage';
import { openFileStorage } from '../files/storage/open-file-storage';
import { TaskUpdateBus } from '../graphql/task-update-bus';
import { IdempotencyStore } from '../http/idempotency-store';
import { AccountStore } from '../keys/account-store';
import { CredentialStore } from '../keys/credential-store';
import { FailedAuthThrottle } from '../keys/failed-auth-throttle';
import { KeyAuthenticator } from '../keys/key-authenticator';
import { KeyChangeBus } from '../keys/key-change-bus';
import { KeyStore } from '../keys/key-store';
import { openRateLimitRedis } from '../limits/rate-limit-redis';
import { RateLimits } from '../limits/rate-limits';
import { newRouting, type Routing } from '../model-call/routing';
import type { Logger } from '../observability/logger';
import { GatewayMetrics } from '../observability/metrics';
import type { Tracing } from '../observability/tracing';
import { FileBytesBudget } from '../responses/file-bytes-budget';
import { ResponseStore } from '../responses/response-store';
import { ResponsesService } from '../responses/responses-service';
import { MessagesService } from '../messages/messages-service';
import { StoredResponses } from '../responses/stored-responses';
import { SearchService } from '../search/search-service';
import { McpService } from '../mcp/mcp-service';
import { McpToolsForModels } from '../mcp/mcp-tools-for-models';
import { ModelCallGate } from '../model-call/model-call-gate';
import { McpUpstream } from '../providers/mcp/mcp-upstream';
import { SpendTotals } from '../usage/spend-totals';
import { UsageQueries } from '../usage/usage-queries';
import { VideoService } from '../videos/video-service';
import { VideoTaskStore } from '../videos/video-task-store';

/**
 * Everything one gateway is made of, built once by the composition root:
 * the capability services every door calls, the stores and billing under
 * them, and what operating them takes. Each door declares the slice it
 * needs (GraphQL: `GraphqlServices`; a REST router: its arguments) and is
 * handed this object, which satisfies them all; no door's type shapes it.
 */
export interface GatewayServices {
  /** `<host>-<pid>-<random>`: this instance's name for the leases it takes. */
  instanceId: string;
  catalog: Catalog;
  /** The catalog's stored revisions, kept in force on every instance; the admin API edits through it. */
  catalogSync: CatalogSync;
  metrics: GatewayMetrics;
  tracing: Tracing;
  /** Routing with fallback: each provider channel's health and retry budget, this gateway's own. */
  routing: Routing;
  logger: Logger;

  keys: KeyStore;
  /** The secret of a request, a graphql-ws connection or an operation -> its principal. */
  authenticator: KeyAuthenticator;
  accounts: AccountStore;
  /** Temporary credentials and the budgets over a key. */
  credentials: CredentialServices;

  writer: UsageWriter;
  recorder: UsageRecorder;
  ledger: Ledger;
  /** The spend leases' rows (the sweep ends expired ones), and this instance's leases, given back at shutdown (null: leases off). */
  leaseStore: SpendLeaseStore;
  spendLeases: SpendLeases | null;
  /** The operator's API: keys, accounts with their projects and members, spend. */
  keyAdmin: KeyAdmin;
  accountAdmin: AccountAdmin;
  spendAdmin: SpendAdmin;
  /** The catalog's MCP servers, edited one at a time, with their health on this instance. */
  mcpServerAdmin: McpServerAdmin;
  /** Requests and tokens per minute per key, account and model. */
  rateLimits: RateLimits;
  idempotency: IdempotencyStore;

  chat: ChatService;
  responses: ResponsesService;
  messages: MessagesService;
  /** The responses the gateway keeps: retrieve, delete, input items, and the writes still owed (flushed at shutdown). */
  storedResponses: StoredResponses;
  embeddings: EmbeddingsService;
  generateContent: GenerateContentService;
  search: SearchService;
  /** `/mcp`: the operator's MCP servers' tools, one list per key. */
  mcp: McpService;
  decisions: DecisionService;
  videos: VideoService;
  videoTasks: VideoTaskStore;
  /** Task updates by key: through Redis across instances, or in-process. */
  taskUpdates: TaskUpdateBus;
  files: FileService;
  usage: UsageQueries;
  spend: SpendTotals;

  /** Connections the services opened, closed at shutdown (shutdown.ts). */
  fileStorage: FileStorage;
  keyChanges?: KeyChangeBus;
  rateLimitRedis?: Redis;
}

export interface ServiceInputs {
  env: GatewayEnv;
  rawEnv: NodeJS.ProcessEnv;
  loaded: LoadedConfig;
  logger: Logger;
  db: Database;
  tracing: Tracing;
  /** Where the built-in simulator serves, when the catalog has simulated providers. */
  simulatorUrl: string | undefined;
}

/** Builds the services of one gateway over its open database: the catalog in force, billing, keys, and every capability. */
export async function buildServices(inputs: ServiceInputs): Promise<GatewayServices> {
  const { env, rawEnv, loaded, logger, db, tracing } = inputs;
  const catalogSync = await CatalogSync.start(
    { db, logger, env: rawEnv, simulatorUrl: inputs.simulatorUrl, pollMs: db.kind === 'postgres' ? env.GATEWAY_CATALOG_POLL_MS : 0 },
    loaded.document,
    loaded.file ? `file:${path.basename(loaded.file)}` : 'default',
  );
  if (loaded.file) catalogSync.watch(loaded.file);
  const { catalog } = catalogSync;

  const metrics = new GatewayMetrics();
  const routing = newRouting(metrics, tracing);
  const spool = new UsageSpool(path.join(env.dataDir, 'usage-spool.jsonl'));
  metrics.readSpoolDepthFrom(spool);
  const writer = new UsageWriter(db, spool, logger, metrics);
  await writer.replaySpool();
  const instanceId = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const leaseStore = new SpendLeaseStore(db);
  const spendLeases = env.GATEWAY_SPEND_LEASES === 'on'
    ? new SpendLeases(leaseStore, instanceId, {
      sizing: DEFAULT_LEASE_SIZING, ttlMs: env.GATEWAY_SPEND_LEASE_TTL_MS, idleMs: 250, maxAgeMs: 10_000, drainLimitMs: env.GATEWAY_HOLD_EXPIRY_MS, retryMs: 500,
    }, logger)
    : null;
  const spendGuard = new SpendGuard(new HoldPlacer(db), catalog, db, logger, spendLeases);
  const recorder = new UsageRecorder(catalog, writer, metrics, tracing, spendGuard);

  // Without Redis there is one instance, and a revocation drops the key from its cache at once.
  const keyChanges = env.REDIS_URL ? KeyChangeBus.throughRedis(env.REDIS_URL, { logger, metrics, cacheMs: env.GATEWAY_KEY_CACHE_MS }) : undefined;
  const keys = new KeyStore(db, env.GATEWAY_KEY_CACHE_MS, undefined, keyChanges);
  keyChanges?.onKeyChanged((change) => keys.forget(change.key_id));
  const authenticator = new KeyAuthenticator(keys, new FailedAuthThrottle(env.GATEWAY_AUTH_FAILURES_PER_MINUTE));
  const accounts = new AccountStore(db);
  const wallets = new WalletStore(db);
  const budgets = new BudgetStore(db);
  const ledger = new Ledger(db);

  const videoTasks = new VideoTaskStore(db);
  metrics.countVideoTasksWith(() => videoTasks.countByState());
  const taskUpdates = env.REDIS_URL ? TaskUpdateBus.throughRedis(env.REDIS_URL, logger, metrics) : TaskUpdateBus.inProcess(logger, metrics);
  metrics.countTaskUpdateSubscribersOf(taskUpdates);
  const videos = new VideoService({
    catalog, store: videoTasks, events: taskUpdates, routing, logger, instanceId, leaseMs: env.GATEWAY_VIDEO_LEASE_MS, usageSpool: writer,
  });
  const fileStorage = await openFileStorage(env, rawEnv);
  const files = new FileService({
    store: new FileStore(db), storage: fileStorage, logger,
    limits: { user_data: env.GATEWAY_FILE_MAX_USER_DATA_BYTES, vision: env.GATEWAY_FILE_MAX_VISION_BYTES },
    retentionMs: env.GATEWAY_FILE_RETENTION_DAYS * 24 * 60 * 60 * 1000,
  });
  const rateLimitRedis = env.REDIS_URL ? await openRateLimitRedis(env.REDIS_URL, logger) : undefined;
  const rateLimits = new RateLimits({
    defaults: { keyRpm: env.GATEWAY_RATE_LIMIT_KEY_RPM, keyTpm: env.GATEWAY_RATE_LIMIT_KEY_TPM, accountRpm: env.GATEWAY_RATE_LIMIT_ACCOUNT_RPM, accountTpm: env.GATEWAY_RATE_LIMIT_ACCOUNT_TPM },
    modelLimits: (name) => {
      const model = catalog.model(name);
      return model?.config.rate_limits ? { id: model.id, ...model.config.rate_limits } : undefined;
    },
    redis: rateLimitRedis, redisPrefix: env.GATEWAY_RATE_LIMIT_REDIS_PREFIX, whenRedisDown: env.GATEWAY_RATE_LIMIT_REDIS_DOWN, logger, metrics,
  });

  const mcpUpstream = new McpUpstream();
  const mcp = new McpService(catalog, mcpUpstream);
  const chat = new ChatService(catalog, routing, new McpToolsForModels(mcp, new ModelCallGate({ recorder, logger, rateLimits })));
  const storedResponses = new StoredResponses(new ResponseStore(db, logger, env.GATEWAY_RESPONSES_RETENTION_DAYS * 24 * 60 * 60 * 1000));
  const decisionTimeLimits = { ...DECISION_TIME_LIMITS, evaluationMs: env.GATEWAY_DECISIONS_EVALUATION_TIMEOUT_MS, generationMs: env.GATEWAY_DECISIONS_GENERATION_TIMEOUT_MS };
  const embeddings = new EmbeddingsService(catalog, routing);
  const questions = new QuestionGenerator({ catalog, recorder, ledger, rateLimits, routing, logger, timeLimits: decisionTimeLimits });
  return {
    instanceId, catalog, catalogSync, metrics, tracing, routing, logger,
    keys, authenticator, accounts,
    credentials: { credentials: new CredentialStore(db, keys), keys, wallets, budgets },
    writer, recorder, ledger, leaseStore, spendLeases,
    keyAdmin: new KeyAdmin(keys),
    accountAdmin: new AccountAdmin(accounts),
    spendAdmin: new SpendAdmin({ db, accounts, keys, wallets, budgets, ledger }),
    mcpServerAdmin: new McpServerAdmin(catalogSync, mcpUpstream.health),
    rateLimits,
    idempotency: new IdempotencyStore(db),
    chat,
    messages: new MessagesService(catalog, chat, routing),
    responses: new ResponsesService(catalog, chat, files, routing, new FileBytesBudget(env.GATEWAY_FILE_DEREFERENCE_MAX_BYTES), storedResponses, env.GATEWAY_RESPONSES_UPSTREAM_STORE),
    storedResponses,
    embeddings,
    generateContent: new GenerateContentService(catalog, chat, embeddings, routing),
    search: new SearchService(catalog, routing),
    mcp,
    decisions: new DecisionService(catalog, questions, routing, decisionTimeLimits),
    videos, videoTasks, taskUpdates, files,
    usage: new UsageQueries(db.prisma),
    spend: new SpendTotals(db),
    fileStorage, keyChanges, rateLimitRedis,
  };
}
