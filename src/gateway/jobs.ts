import type { GatewayEnv } from '../config/env';
import { FileSweeper } from '../jobs/file-sweeper';
import { HoldSweeper } from '../jobs/hold-sweeper';
import { IdempotencySweeper } from '../jobs/idempotency-sweeper';
import { ResponseSweeper } from '../jobs/response-sweeper';
import { VideoPoller } from '../jobs/video-poller';
import type { GatewayServices } from './services';

/** Background work of one gateway, named for the log. */
export interface Job {
  name: string;
  start(): void;
  stop(): Promise<void> | void;
}

/**
 * The gateway's background work: the video poller (when
 * `GATEWAY_VIDEO_POLLER` is on), the sweeps of expired files, idempotency
 * claims, spend holds and stored responses, and the catalog's revision poll (started with
 * the catalog; stopped here).
 */
export function gatewayJobs(s: GatewayServices, env: GatewayEnv): Job[] {
  const poller = env.GATEWAY_VIDEO_POLLER
    ? new VideoPoller(s.videoTasks, s.videos, s.logger, { owner: s.instanceId, leaseMs: env.GATEWAY_VIDEO_LEASE_MS, concurrency: 32, idleMs: env.GATEWAY_VIDEO_POLL_IDLE_MS })
    : undefined;
  return [
    ...(poller ? [{ name: 'video poller', start: () => poller.start(), stop: () => poller.stop() }] : []),
    named('file sweep', new FileSweeper(s.files, s.logger, env.GATEWAY_FILE_SWEEP_MS)),
    named('idempotency sweep', new IdempotencySweeper(s.idempotency, s.logger)),
    named('hold sweep', new HoldSweeper(s.ledger, s.leaseStore, s.logger, env.GATEWAY_HOLD_EXPIRY_MS)),
    named('stored response sweep', new ResponseSweeper(s.storedResponses.store, s.logger)),
    { name: 'catalog sync', start: () => {}, stop: () => s.catalogSync.stop() },
  ];
}

function named(name: string, job: { start(): void; stop(): Promise<void> }): Job {
  return { name, start: () => job.start(), stop: () => job.stop() };
}

/**
 * Stops every job at once and waits for all (the poller's polls in flight
 * are abandoned: their leases run out for another instance); one that fails
 * to stop is logged and does not keep the others running.
 */
export async function stopJobs(jobs: Job[], logger: GatewayServices['logger']): Promise<void> {
  await Promise.all(jobs.map(async (job) => {
    try {
      await job.stop();
    } catch (err) {
      logger.error('a job failed to stop', { job: job.name, err });
    }
  }));
}
