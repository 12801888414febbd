import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { packageVersion } from '../config/package-root';
import type { GatewayEnv } from '../config/env';
import type { LoadedConfig } from '../config/load-config';
import { openDatabase, type Database } from '../db/database';
import { migrate } from '../db/migrate';
import { TimePartitions } from '../db/time-partitions';
import { answerClientError } from '../http/client-error';
import { startOpsServer, type OpsServer } from '../http/ops-server';
import { OverloadGuard } from '../http/overload-guard';
import { closeRateLimitRedis } from '../limits/rate-limit-redis';
import { livenessRouter, opsRouter, type HealthChecks } from '../observability/health-router';
import type { Logger } from '../observability/logger';
import { Tracing, tracingSettings } from '../observability/tracing';
import { needsSimulator } from '../providers/resolved-provider';
import type { SimulatorHandle } from '@model-gateway/simulator';
import { startBuiltInSimulator } from '../providers/built-in-simulator';
import { compactHeapAfterStartup } from './compact-heap';
import { mountDoors, type StartedDoor } from './doors';
import { gatewayJobs, stopJobs, type Job } from './jobs';
import { buildServices, type GatewayServices } from './services';
import { runShutdown, type ShutdownStep } from './shutdown';

/** At shutdown, how long a request still arriving (its headers or body half-sent) may take to finish arriving. */
const HALF_SENT_GRACE_MS = 1_000;
/**
 * At shutdown, how long each step that waits on something outside the
 * process is waited for before the next step goes on: the jobs' rounds in
 * progress (after the grace period), the doors' open operations, the spend
 * leases given back, the spans exported, and each connection closed.
 */
const JOBS_STOP_MS = 2_000;
const DOOR_STOP_MS = 5_000;
const LEASES_RETURN_MS = 5_000;
const SPANS_EXPORT_MS = 5_000;
const CLOSE_MS = 2_000;

export interface GatewayOptions {
  env: GatewayEnv;
  rawEnv: NodeJS.ProcessEnv;
  /** The config the gateway starts with; the catalog may then be edited at runtime (see CatalogSync). */
  loaded: LoadedConfig;
  logger: Logger;
  /**
   * Compact the heap once before the listener opens (compact-heap.ts): the
   * gateway process's own start does; gateways started inside another
   * program (tests) leave the program's heap alone.
   */
  compactHeap?: boolean;
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
  /** Stops taking requests, finishes those in flight, flushes usage records, closes everything (see `shutdownSteps`). */
  shutdown(reason: string): Promise<void>;
}

/**
 * Builds and starts one gateway: its database, the built-in simulator when
 * the catalog needs it, the services, the doors on one listener, and the
 * background jobs. Everything is this gateway's own (its tracer, its
 * channels' health and retry budgets): two gateways in one process share
 * nothing but the process.
 */
export async function startGateway(opts: GatewayOptions): Promise<RunningGateway> {
  const { env, logger } = opts;
  const startedAt = performance.now();
  const tracing = Tracing.start(tracingSettings(opts.rawEnv), packageVersion());
  const db = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: path.join(env.dataDir, 'pglite'),
    timeouts: { statementMs: env.GATEWAY_DB_STATEMENT_TIMEOUT_MS, lockMs: env.GATEWAY_DB_LOCK_TIMEOUT_MS, connectMs: env.GATEWAY_DB_CONNECT_TIMEOUT_MS },
    preparedStatements: env.GATEWAY_DB_PREPARED_STATEMENTS,
  });
  const migrations = await migrate(db);
  // Before any record is written (the spool's replay among them): this month's partitions and the next ones.
  const partitionsMade = await new TimePartitions(db).prepare(new Date());
  logger.info('database ready', {
    database: db.kind, migrations_applied: migrations.applied, ...(partitionsMade.length ? { partitions_made: partitionsMade } : {}), ...(db.kind === 'pglite' ? { data_dir: env.dataDir } : {}),
  });

  // The built-in upstream, when the catalog has providers without an API key: the one place the gateway starts it.
  const simulator = needsSimulator(opts.loaded.config) ? await startBuiltInSimulator(opts.loaded.config, { port: env.SIMULATOR_PORT }) : undefined;
  const services = await buildServices({ ...opts, db, tracing, simulatorUrl: simulator?.url });
  if (simulator) logSimulator(services, simulator, logger);

  let draining = false;
  const guard = new OverloadGuard(env.GATEWAY_MAX_CONCURRENCY, services.metrics);
  const health: HealthChecks = { database: db.kind, isDraining: () => draining, isFull: () => guard.full, probeWrites: () => services.writer.probe() };
  // The ops listener is the operator's own (loopback by default): /metrics is open there, and token-bound on the public port.
  const opsServer: OpsServer | undefined = env.GATEWAY_OPS_PORT === undefined ? undefined : await startOpsServer([livenessRouter(), opsRouter(health, services.metrics)], env.GATEWAY_OPS_HOST, env.GATEWAY_OPS_PORT);
  const httpServer = createServer();
  const doors = mountDoors(services, { env, httpServer, guard, health, isDraining: () => draining });
  for (const door of doors.started) await door.start();
  const compacted = opts.compactHeap ? compactHeapAfterStartup() : undefined;
  const port = await listen(httpServer, doors.listener, env);
  const url = `http://${env.HOST === '0.0.0.0' ? '127.0.0.1' : env.HOST}:${port}`;
  const jobs = gatewayJobs(services, env);
  for (const job of jobs) job.start();
  if (opts.loaded.unkeyed) {
    logger.warn('default catalog: without an API key and without the built-in simulator, these are off, and their models with them', {
      off: opts.loaded.unkeyed, what_to_do: 'set their API keys, or name only the providers you use in GATEWAY_CONFIG, or install the simulator and set GATEWAY_UNKEYED_PROVIDERS=simulator',
    });
  }
  logger.info('gateway listening', {
    url, config: opts.loaded.source, models: services.catalog.allModels().length, catalog_revision: services.catalogSync.revision, pricing_version: services.catalog.contents.pricing.version,
    admin_api: env.GATEWAY_ADMIN_TOKEN ? 'enabled' : 'disabled (set GATEWAY_ADMIN_TOKEN)',
    startup_ms: Math.round(performance.now() - startedAt),
    ...(compacted ? { heap_compaction_ms: compacted.ms } : {}),
    instance: services.instanceId,
    video_poller: jobs.some((j) => j.name === 'video poller') ? 'on' : 'off',
    file_storage: services.fileStorage.kind,
    ops: opsServer ? `${opsServer.url} (/readyz, /metrics)` : 'on the public listener, /metrics with GATEWAY_METRICS_TOKEN or the admin token only (set GATEWAY_OPS_PORT to move /readyz and /metrics off it)',
  });

  let shuttingDown: Promise<void> | undefined;
  const running: RunningParts = { env, logger, db, tracing, services, guard, httpServer, doors: doors.started, jobs, opsServer, simulator, startDraining: () => void (draining = true) };
  const shutdown = (reason: string) => (shuttingDown ??= runShutdown(shutdownSteps(running, reason), logger));

  return { url, port, opsUrl: opsServer?.url, server: httpServer, db, services, simulator, shutdown };
}

/** What a running gateway is made of, for its shutdown. */
interface RunningParts {
  env: GatewayEnv;
  logger: Logger;
  db: Database;
  tracing: Tracing;
  services: GatewayServices;
  guard: OverloadGuard;
  httpServer: Server;
  doors: StartedDoor[];
  jobs: Job[];
  opsServer: OpsServer | undefined;
  simulator: SimulatorHandle | undefined;
  /** From now on /readyz answers draining, and new requests and subscriptions are refused. */
  startDraining: () => void;
}

/**
 * What stops at shutdown, in order: stop taking requests; finish those in
 * flight while the jobs stop; end the doors' open operations (each
 * subscription hands over its usage record); close the listener; wait for
 * the records still owed, flush them (or spool them); export the spans;
 * close the connections, the simulator, and the database last.
 */
function shutdownSteps(parts: RunningParts, reason: string): ShutdownStep[] {
  const { env, logger, db, tracing, services, guard, httpServer, doors, jobs, opsServer, simulator, startDraining } = parts;
  let idle = true;
  let flushed = false;
  return [
  { name: 'stop taking requests', run: () => {
    startDraining();
    logger.info('shutting down: no new requests, finishing those in flight', { reason, in_flight: guard.current });
  } },
  // A job's round waiting on a database that hangs must not hold back the flush of the usage records.
  { name: 'finish requests in flight and stop the jobs', withinMs: env.GATEWAY_SHUTDOWN_GRACE_MS + JOBS_STOP_MS, run: async () => {
    const jobsStopped = stopJobs(jobs, logger);
    idle = await guard.drain(env.GATEWAY_SHUTDOWN_GRACE_MS);
    if (!idle) logger.warn('grace period over; closing requests still in flight', { in_flight: guard.current });
    await jobsStopped;
  } },
  ...doors.map((door) => ({ name: `stop ${door.name}`, withinMs: DOOR_STOP_MS, run: () => door.stop() })),
  { name: 'close the listener', run: () => closeListener(httpServer, idle) },
  { name: 'wait for usage records still owed', run: async () => {
    // Streams cut by closing their connections settle a moment later; their records go in before the flush.
    if (!(await services.recorder.allHandedOver(5_000))) logger.error('some requests did not hand over their usage records before shutdown');
  } },
  { name: 'flush usage records', run: async () => {
    // A database that cannot take them (locked, gone) gets a deadline; what is left goes to the spool.
    flushed = await services.writer.flushWithin(env.GATEWAY_SHUTDOWN_FLUSH_MS);
    if (!flushed) logger.error('usage records were spooled at shutdown; the next start replays them');
  } },
  { name: 'give back spend leases', withinMs: LEASES_RETURN_MS, run: () => services.spendLeases?.returnAll() },
  { name: 'write stored responses', run: async () => {
    // Answered responses whose rows are still on their way: written before the database closes.
    if (!(await services.storedResponses.store.flushWithin(env.GATEWAY_SHUTDOWN_FLUSH_MS))) logger.error('some stored responses were not written before shutdown');
  } },
  { name: 'export spans', withinMs: SPANS_EXPORT_MS, run: () => tracing.close().catch((err: unknown) => logger.warn('spans could not be exported at shutdown', { err })) },
  { name: 'close task updates', withinMs: CLOSE_MS, run: () => services.taskUpdates.close() },
  { name: 'close rate-limit Redis', withinMs: CLOSE_MS, run: () => services.rateLimitRedis && closeRateLimitRedis(services.rateLimitRedis) },
  { name: 'close key changes', withinMs: CLOSE_MS, run: () => services.keyChanges?.close() },
  { name: 'close the ops listener', withinMs: CLOSE_MS, run: () => opsServer?.close() },
  { name: 'close file storage', withinMs: CLOSE_MS, run: () => services.fileStorage.close() },
  { name: 'close MCP event streams', withinMs: CLOSE_MS, run: () => services.mcp.close() },
  { name: 'stop the simulator', withinMs: CLOSE_MS, run: () => simulator?.close() },
  // A dead link must not hold the exit: the pool gets a few seconds to close.
  { name: 'close the database', run: () => Promise.race([db.close(), new Promise<void>((resolve) => setTimeout(resolve, flushed ? 5_000 : 1_000).unref())]) },
  { name: 'log the end', run: () => logger.info('shutdown complete', { reason }) },
];
}

/** The built-in upstream serves the catalog's providers (and search backends) that have no API key: says which, and how to change it. */
function logSimulator(services: GatewayServices, simulator: SimulatorHandle, logger: Logger): void {
  logger.info('built-in simulator serving providers without an API key', {
    simulator_url: simulator.url,
    simulated_providers: [...services.catalog.contents.providers.values()].filter((p) => p.simulated).map((p) => p.name),
    hint: 'set OPENAI_API_KEY (and ANTHROPIC_API_KEY, GEMINI_API_KEY, XAI_API_KEY) to route those models to the real upstreams',
  });
}

/** Serves `listener` on PORT and HOST; resolves with the port taken (PORT=0: an ephemeral one). */
async function listen(httpServer: Server, listener: RequestListener, env: GatewayEnv): Promise<number> {
  httpServer.on('request', listener);
  httpServer.on('clientError', answerClientError);
  httpServer.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(env.PORT, env.HOST, () => resolve());
  });
  return (httpServer.address() as AddressInfo).port;
}

/**
 * Closes the listener: idle connections at once; past the grace period
 * (`idle` false) requests still in flight are cut. Otherwise what is left
 * is a request still arriving (headers or body half-sent, a slow or
 * stalled client): it gets a moment, not Node's 60 s header time-out.
 */
function closeListener(httpServer: Server, idle: boolean): Promise<void> {
  return new Promise<void>((resolve) => {
    httpServer.close(() => resolve());
    httpServer.closeIdleConnections();
    if (!idle) httpServer.closeAllConnections();
    else setTimeout(() => httpServer.closeAllConnections(), HALF_SENT_GRACE_MS).unref();
  });
}
