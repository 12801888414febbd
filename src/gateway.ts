import { flushTraces, startTracing, tracingSettings } from './observability/tracing';
import { packageVersion } from './config/package-root';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import path from 'node:path';
import { adminKeysRouter } from './admin/admin-keys-router';
import { UsageRecorder } from './billing/usage-recorder';
import { UsageSpool } from './billing/usage-spool';
import { UsageWriter } from './billing/usage-writer';
import { CatalogSync } from './catalog/catalog-sync';
import { adminCatalogRouter } from './admin/admin-catalog-router';
import { adminAccountsRouter } from './admin/admin-accounts-router';
import { AccountStore } from './keys/account-store';
import { needsSimulator } from './providers/resolved-provider';
import { chatRoute } from './chat/chat-router';
import { consoleRouter } from './console/console-router';
import { ChatService } from './chat/chat-service';
import type { GatewayEnv } from './config/env';
import type { LoadedConfig } from './config/load-config';
import { openDatabase, type Database } from './db/database';
import { migrate } from './db/migrate';
import { buildRequestListener } from './http/app';
import { jsonBody as jsonBodyReader } from './http/json-body';
import { requireApiKey, requireMetricsToken } from './http/auth';
import { answerClientError } from './http/client-error';
import { OverloadGuard } from './http/overload-guard';
import { KeyStore } from './keys/key-store';
import { KeyAuthenticator } from './keys/key-authenticator';
import { FailedAuthThrottle } from './keys/failed-auth-throttle';
import { KeyChangeBus } from './keys/key-change-bus';
import { modelsRouter } from './models/models-router';
import { livenessRouter, opsRouter } from './observability/health-router';
import { startOpsServer, type OpsServer } from './http/ops-server';
import type { Logger } from './observability/logger';
import { GatewayMetrics } from './observability/metrics';
import type { SimulatorHandle } from '@model-gateway/simulator';
import { startBuiltInSimulator } from './providers/built-in-simulator';
import { UsageQueries } from './usage/usage-queries';
import { usageRouter } from './usage/usage-router';
import { SpendTotals } from './usage/spend-totals';
import { spendTotalsRouter } from './usage/spend-totals-router';
import { adminUsageRouter } from './admin/admin-usage-router';
import type { GraphqlServices } from './graphql/context';
import { mountGraphql, type GraphqlServer } from './graphql/graphql-server';
import { TaskUpdateBus } from './graphql/task-update-bus';
import { VideoPoller } from './jobs/video-poller';
import { VideoService } from './videos/video-service';
import { VideoTaskStore } from './videos/video-task-store';
import { videosRouter } from './videos/videos-router';
import { EmbeddingsService } from './embeddings/embeddings-service';
import { embeddingsRoute } from './embeddings/embeddings-router';
import { searchRoute } from './search/search-router';
import { decisionsRoute } from './decisions/decisions-router';
import { DecisionService } from './decisions/decision-service';
import { DECISION_TIME_LIMITS } from './decisions/decision-time-limits';
import { DECISION_UNIQUE_IDS } from './decisions/decision-unique-ids';
import { QuestionGenerator } from './decisions/question-generation';
import { SearchService } from './search/search-service';
import { FileService } from './files/file-service';
import { FileStore } from './files/file-store';
import { filesRouter } from './files/files-router';
import { openFileStorage } from './files/storage/open-file-storage';
import { FileSweeper } from './jobs/file-sweeper';
import { FileBytesBudget } from './responses/file-bytes-budget';
import { ResponsesService } from './responses/responses-service';
import { IdempotencyStore } from './http/idempotency-store';
import { IdempotencySweeper } from './jobs/idempotency-sweeper';
import { HoldSweeper } from './jobs/hold-sweeper';
import { adminSpendRouter } from './admin/admin-spend-router';
import { SpendAdmin } from './admin/spend-admin';
import { mountAdminGraphql } from './graphql/admin/admin-graphql';
import { credentialsRouter } from './credentials/credentials-router';
import { CredentialStore } from './keys/credential-store';
import { BudgetStore } from './billing/budget-store';
import { HoldPlacer } from './billing/hold-placer';
import { Ledger } from './billing/ledger';
import { SpendGuard } from './billing/spend-guard';
import { WalletStore } from './billing/wallet-store';
import { responsesRoute } from './responses/responses-router';
import { RateLimits } from './limits/rate-limits';
import { closeRateLimitRedis, openRateLimitRedis } from './limits/rate-limit-redis';

/** At shutdown, how long a request still arriving (its headers or body half-sent) may take to finish arriving. */
const HALF_SENT_GRACE_MS = 1_000;
export interface GatewayOptions {
  env: GatewayEnv;
  rawEnv: NodeJS.ProcessEnv;
  /** The config the gateway starts with; the catalog may then be edited at runtime (see CatalogSync). */
  loaded: LoadedConfig;
  logger: Logger;
}

export interface RunningGateway {
  url: string;
  port: number;
  server: Server;
  /** The operations listener (/readyz, /metrics), when GATEWAY_OPS_PORT is set. */
  opsUrl?: string;
  db: Database;
  services: GatewayServices;
  simulator?: SimulatorHandle;
  /** Stops taking requests, finishes those in flight, flushes usage records, closes everything. */
  shutdown(reason: string): Promise<void>;
}

/** The capability services, shared by REST and GraphQL, and what operating them takes. */
export interface GatewayServices extends GraphqlServices {
  videoTasks: VideoTaskStore;
  writer: UsageWriter;
  metrics: GatewayMetrics;
}

/** Builds and starts the whole gateway: database, catalog, services, HTTP and GraphQL. */
export async function startGateway(opts: GatewayOptions): Promise<RunningGateway> {
  const { env, logger } = opts;
  const { config } = opts.loaded;
  const startedAt = performance.now();
  startTracing(tracingSettings(opts.rawEnv), packageVersion());

  const db = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: path.join(env.dataDir, 'pglite'),
    timeouts: { statementMs: env.GATEWAY_DB_STATEMENT_TIMEOUT_MS, lockMs: env.GATEWAY_DB_LOCK_TIMEOUT_MS, connectMs: env.GATEWAY_DB_CONNECT_TIMEOUT_MS },
  });
  const migrations = await migrate(db);
  logger.info('database ready', { database: db.kind, migrations_applied: migrations.applied, ...(db.kind === 'pglite' ? { data_dir: env.dataDir } : {}) });

  const simulator = needsSimulator(config) ? await startBuiltInSimulator(config, { port: env.SIMULATOR_PORT }) : undefined;
  const catalogSync = await CatalogSync.start(
    { db, logger, env: opts.rawEnv, simulatorUrl: simulator?.url, pollMs: db.kind === 'postgres' ? env.GATEWAY_CATALOG_POLL_MS : 0 },
    opts.loaded.document,
    opts.loaded.file ? `file:${path.basename(opts.loaded.file)}` : 'default',
  );
  if (opts.loaded.file) catalogSync.watch(opts.loaded.file);
  const { catalog } = catalogSync;
  const simulated = [...catalog.contents.providers.values()].filter((p) => p.simulated).map((p) => p.name);
  if (simulator) {
    logger.info('built-in simulator serving providers without an API key', {
      simulator_url: simulator.url,
      simulated_providers: simulated,
      hint: 'set OPENAI_API_KEY (and ANTHROPIC_API_KEY, GEMINI_API_KEY, XAI_API_KEY) to route those models to the real upstreams',
    });
  }

  const metrics = new GatewayMetrics();
  const spool = new UsageSpool(path.join(env.dataDir, 'usage-spool.jsonl'));
  metrics.readSpoolDepthFrom(spool);
  const writer = new UsageWriter(db, spool, logger, metrics);
  await writer.replaySpool();
  const spendGuard = new SpendGuard(new HoldPlacer(db), catalog, db, logger);
  const recorder = new UsageRecorder(catalog, writer, metrics, spendGuard);
  // Without Redis there is one instance, and a revocation drops the key from its cache at once.
  const keyChanges = env.REDIS_URL ? KeyChangeBus.throughRedis(env.REDIS_URL, { logger, metrics, cacheMs: env.GATEWAY_KEY_CACHE_MS }) : undefined;
  const keys = new KeyStore(db, env.GATEWAY_KEY_CACHE_MS, undefined, keyChanges);
  keyChanges?.onKeyChanged((change) => keys.forget(change.key_id));
  const authenticator = new KeyAuthenticator(keys, new FailedAuthThrottle(env.GATEWAY_AUTH_FAILURES_PER_MINUTE));
  const instanceId = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const videoTasks = new VideoTaskStore(db);
  metrics.countVideoTasksWith(() => videoTasks.countByState());
  const taskUpdates = env.REDIS_URL ? TaskUpdateBus.throughRedis(env.REDIS_URL, logger, metrics) : TaskUpdateBus.inProcess(logger, metrics);
  metrics.countTaskUpdateSubscribersOf(taskUpdates);
  const videos = new VideoService({
    catalog, store: videoTasks, events: taskUpdates, metrics, logger, instanceId, leaseMs: env.GATEWAY_VIDEO_LEASE_MS, usageSpool: writer,
  });
  const fileStorage = await openFileStorage(env, opts.rawEnv);
  const files = new FileService({
    store: new FileStore(db), storage: fileStorage, logger,
    limits: { user_data: env.GATEWAY_FILE_MAX_USER_DATA_BYTES, vision: env.GATEWAY_FILE_MAX_VISION_BYTES },
    retentionMs: env.GATEWAY_FILE_RETENTION_DAYS * 24 * 60 * 60 * 1000,
  });
  const fileSweeper = new FileSweeper(files, logger, env.GATEWAY_FILE_SWEEP_MS);
  const rateLimitRedis = env.REDIS_URL ? await openRateLimitRedis(env.REDIS_URL, logger) : undefined;
  const rateLimits = new RateLimits({
    defaults: { keyRpm: env.GATEWAY_RATE_LIMIT_KEY_RPM, keyTpm: env.GATEWAY_RATE_LIMIT_KEY_TPM, accountRpm: env.GATEWAY_RATE_LIMIT_ACCOUNT_RPM, accountTpm: env.GATEWAY_RATE_LIMIT_ACCOUNT_TPM },
    modelLimits: (name) => {
      const model = catalog.model(name);
      return model?.config.rate_limits ? { id: model.id, ...model.config.rate_limits } : undefined;
    },
    redis: rateLimitRedis, redisPrefix: env.GATEWAY_RATE_LIMIT_REDIS_PREFIX, whenRedisDown: env.GATEWAY_RATE_LIMIT_REDIS_DOWN, logger, metrics,
  });
  const ledger = new Ledger(db);
  const decisionTimeLimits = { ...DECISION_TIME_LIMITS, evaluationMs: env.GATEWAY_DECISIONS_EVALUATION_TIMEOUT_MS, generationMs: env.GATEWAY_DECISIONS_GENERATION_TIMEOUT_MS };
  const accounts = new AccountStore(db);
  const wallets = new WalletStore(db);
  const budgets = new BudgetStore(db);
  const credentials = { credentials: new CredentialStore(db, keys), keys, wallets, budgets };
  const spendAdmin = new SpendAdmin({ db, accounts, keys, wallets, budgets, ledger });
  const services: GatewayServices = {
    catalog, keys, authenticator, chat: new ChatService(catalog, metrics), videos, videoTasks, usage: new UsageQueries(db.prisma), spend: new SpendTotals(db), files,
    credentials, recorder, rateLimits, writer, metrics, logger,
  };
  const poller = env.GATEWAY_VIDEO_POLLER
    ? new VideoPoller(videoTasks, videos, logger, { owner: instanceId, leaseMs: env.GATEWAY_VIDEO_LEASE_MS, concurrency: 32, idleMs: env.GATEWAY_VIDEO_POLL_IDLE_MS })
    : undefined;

  let draining = false;
  const guard = new OverloadGuard(env.GATEWAY_MAX_CONCURRENCY, metrics);
  const healthChecks = { database: db.kind, isDraining: () => draining, isFull: () => guard.full, probeWrites: () => writer.probe() };
  // The ops listener is the operator's own (loopback by default): /metrics is open there, and token-bound on the public port.
  const opsServer: OpsServer | undefined = env.GATEWAY_OPS_PORT === undefined ? undefined : await startOpsServer([livenessRouter(), opsRouter(healthChecks, metrics)], env.GATEWAY_OPS_HOST, env.GATEWAY_OPS_PORT);
  const jsonBody = jsonBodyReader(env.GATEWAY_MAX_BODY_BYTES);
  // Admin writes are commands: only a body declared JSON is one (never a form or text/plain sent across sites).
  const adminJsonBody = jsonBodyReader(env.GATEWAY_MAX_BODY_BYTES, { jsonContentTypeOnly: true });
  const idempotency = new IdempotencyStore(db);
  const idempotencySweeper = new IdempotencySweeper(idempotency, logger);
  const holdSweeper = new HoldSweeper(ledger, logger, env.GATEWAY_HOLD_EXPIRY_MS);
  const apiKey = requireApiKey(authenticator);
  const httpServer = createServer();
  let graphql: GraphqlServer | undefined;
  let adminGraphql: GraphqlServer | undefined;
  const listener = buildRequestListener({
    logger, metrics, guard, logRequests: env.LOG_REQUESTS,
    open: [
      livenessRouter(), ...(env.GATEWAY_OPS_PORT === undefined ? [opsRouter(healthChecks, metrics, requireMetricsToken([env.GATEWAY_METRICS_TOKEN, env.GATEWAY_ADMIN_TOKEN]))] : []),
      adminKeysRouter(keys, env.GATEWAY_ADMIN_TOKEN, adminJsonBody), adminAccountsRouter(accounts, env.GATEWAY_ADMIN_TOKEN, adminJsonBody),
      adminCatalogRouter(catalogSync, env.GATEWAY_ADMIN_TOKEN, adminJsonBody),
      adminUsageRouter(services.spend, env.GATEWAY_ADMIN_TOKEN),
      adminSpendRouter(spendAdmin, env.GATEWAY_ADMIN_TOKEN, adminJsonBody),
      // The web console's page and assets; its API calls carry the key pasted into it.
      consoleRouter(),
    ],
    authenticated: [
      modelsRouter(catalog),
      videosRouter(videos, recorder, logger, jsonBody, idempotency, rateLimits),
      usageRouter(services.usage),
      spendTotalsRouter(services.spend),
      filesRouter(files, { store: idempotency, logger }),
      credentialsRouter(credentials, jsonBody),
    ],
    direct: [
      chatRoute(services.chat, { recorder, logger, jsonBody, idempotency, rateLimits }),
      responsesRoute(new ResponsesService(catalog, services.chat, files, metrics, new FileBytesBudget(env.GATEWAY_FILE_DEREFERENCE_MAX_BYTES), env.GATEWAY_RESPONSES_UPSTREAM_STORE), { recorder, logger, jsonBody, idempotency, rateLimits }),
      embeddingsRoute(new EmbeddingsService(catalog, metrics), { recorder, logger, jsonBody, idempotency, rateLimits }),
      searchRoute(new SearchService(catalog, metrics), { recorder, logger, jsonBody, idempotency, rateLimits }),
      decisionsRoute(new DecisionService(catalog, new QuestionGenerator({ catalog, recorder, ledger, rateLimits, metrics, logger, timeLimits: decisionTimeLimits }), metrics, decisionTimeLimits), {
        recorder, logger, jsonBody: jsonBodyReader(env.GATEWAY_MAX_BODY_BYTES, { uniqueKeys: DECISION_UNIQUE_IDS }), idempotency, rateLimits,
      }),
    ],
    requireApiKey: apiKey,
    extra: [(expressApp) => void (graphql = mountGraphql(expressApp, httpServer, services, jsonBodyReader(env.GATEWAY_GRAPHQL_MAX_BODY_BYTES), {
      taskUpdates, isDraining: () => draining, requireApiKey: apiKey, guard,
      maxMessageBytes: env.GATEWAY_MAX_BODY_BYTES, maxSubscriptionsPerKey: env.GATEWAY_MAX_SUBSCRIPTIONS_PER_KEY, introspection: env.GATEWAY_GRAPHQL_INTROSPECTION,
    })), (expressApp) => void (adminGraphql = mountAdminGraphql(expressApp, { spend: spendAdmin, accounts, keys }, logger, env.GATEWAY_ADMIN_TOKEN, jsonBodyReader(env.GATEWAY_GRAPHQL_MAX_BODY_BYTES)))],
  });
  await graphql?.start();
  await adminGraphql?.start();
  httpServer.on('request', listener);
  httpServer.on('clientError', answerClientError);
  httpServer.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(env.PORT, env.HOST, () => resolve());
  });
  const port = (httpServer.address() as AddressInfo).port;
  const url = `http://${env.HOST === '0.0.0.0' ? '127.0.0.1' : env.HOST}:${port}`;
  poller?.start();
  fileSweeper.start();
  idempotencySweeper.start();
  holdSweeper.start();
  logger.info('gateway listening', {
    url, config: opts.loaded.source, models: catalog.allModels().length, catalog_revision: catalogSync.revision, pricing_version: catalog.contents.pricing.version,
    admin_api: env.GATEWAY_ADMIN_TOKEN ? 'enabled' : 'disabled (set GATEWAY_ADMIN_TOKEN)',
    startup_ms: Math.round(performance.now() - startedAt),
    instance: instanceId,
    video_poller: poller ? 'on' : 'off',
    file_storage: fileStorage.kind,
    ops: opsServer ? `${opsServer.url} (/readyz, /metrics)` : 'on the public listener, /metrics with GATEWAY_METRICS_TOKEN or the admin token only (set GATEWAY_OPS_PORT to move /readyz and /metrics off it)',
  });

  let shuttingDown: Promise<void> | undefined;
  const shutdown = (reason: string) =>
    (shuttingDown ??= (async () => {
      draining = true;
      logger.info('shutting down: no new requests, finishing those in flight', { reason, in_flight: guard.current });
      // The poller stops at once (its polls in flight are abandoned; their leases run out for another instance).
      const pollerStopped = poller?.stop();
      const sweeperStopped = Promise.all([fileSweeper.stop(), idempotencySweeper.stop(), holdSweeper.stop()]);
      catalogSync.stop();
      const idle = await guard.drain(env.GATEWAY_SHUTDOWN_GRACE_MS);
      if (!idle) logger.warn('grace period over; closing requests still in flight', { in_flight: guard.current });
      await pollerStopped;
      await sweeperStopped;
      // Open subscriptions end here, each handing over its usage record.
      await graphql?.stop();
      await adminGraphql?.stop();
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeIdleConnections();
        // Past the grace period, requests still in flight are cut. Otherwise what is left is a request still arriving
        // (headers or body half-sent, a slow or stalled client): it gets a moment, not Node's 60 s header time-out.
        if (!idle) httpServer.closeAllConnections();
        else setTimeout(() => httpServer.closeAllConnections(), HALF_SENT_GRACE_MS).unref();
      });
      // Streams cut by closing their connections settle a moment later; their records go in before the flush.
      if (!(await recorder.allHandedOver(5_000))) logger.error('some requests did not hand over their usage records before shutdown');
      // A database that cannot take them (locked, gone) gets a deadline; what is left goes to the spool.
      const flushed = await writer.flushWithin(env.GATEWAY_SHUTDOWN_FLUSH_MS);
      if (!flushed) logger.error('usage records were spooled at shutdown; the next start replays them');
      await flushTraces().catch((err: unknown) => logger.warn('spans could not be exported at shutdown', { err }));
      await taskUpdates.close();
      if (rateLimitRedis) await closeRateLimitRedis(rateLimitRedis);
      await keyChanges?.close();
      await opsServer?.close();
      await fileStorage.close();
      await simulator?.close();
      // A dead link must not hold the exit: the pool gets a few seconds to close.
      await Promise.race([db.close(), new Promise((resolve) => setTimeout(resolve, flushed ? 5_000 : 1_000).unref())]);
      logger.info('shutdown complete', { reason });
    })());

  return { url, port, opsUrl: opsServer?.url, server: httpServer, db, services, simulator, shutdown };
}
