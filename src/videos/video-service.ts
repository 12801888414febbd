import { SpanKind, type Span } from '@opentelemetry/api';
import { genAiProvider } from '../observability/gen-ai-names';
import { inSpan, type Tracing } from '../observability/tracing';
import { createHash } from 'node:crypto';
import { refundHeldCharge, settleHeldCharge } from '../billing/task-billing';
import type { UsageWriter } from '../billing/usage-writer';
import type { Candidate, Catalog } from '../catalog/catalog';
import type { VideoCapabilities } from '../config/gateway-config-schema';
import { Deadline } from '../deadlines/deadline';
import { decodeCursor, InvalidPageRequestError, type Page, type PageRequest } from '../db/page';
import { timeIdCursor } from '../db/time-id-cursor';
import { Errors } from '../errors/errors';
import { GatewayError } from '../errors/gateway-error';
import { parseRequest } from '../errors/parse-request';
import type { Principal } from '../keys/principal';
import type { RequestContext } from '../model-call/request-context';
import { pricedRoutes } from '../model-call/call-spend-estimate';
import { settlementOf, tryRoutes } from '../model-call/route-attempts';
import { toGatewayError } from '../model-call/to-gateway-error';
import type { Logger } from '../observability/logger';
import type { Routing } from '../model-call/routing';
import { UpstreamError } from '../providers/upstream-error';
import type { VideoAdapter, VideoCall, VideoContent, VideoPoll, VideoSubmission } from '../providers/video-adapter';
import { videoAdapterFor } from '../providers/video-registry';
import { firstPollAt, nextPollAt, pollScheduleFor, type PollSchedule } from './poll-schedule';
import { taskError, upstreamFailure } from './task-errors';
import type { TaskEvents } from './task-events';
import { openAISubmissionSchema, remixSchema, xaiSubmissionSchema } from './video-request-schemas';
import { isFinished, type VideoTask, type VideoTaskError, type VideoTaskParams, type VideoTaskResult } from './video-task';
import type { VideoTaskFilter, VideoTaskStore } from './video-task-store';
import { newVideoId } from './video-id';
import { videoIdCursor } from './video-id-cursor';

export const VIDEOS_ENDPOINT = '/v1/videos';
export const VIDEO_GENERATIONS_ENDPOINT = '/v1/videos/generations';

/** An upload for image-to-video on the OpenAI-style API (`input_reference`). */
export interface UploadedImage {
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface VideoServiceDeps {
  catalog: Catalog;
  store: VideoTaskStore;
  events: TaskEvents;
  /** Routing with fallback for submissions, and the metrics and tracer of this gateway. */
  routing: Routing;
  logger: Logger;
  /** This process's lease owner name. */
  instanceId: string;
  /** How long a claimed task stays leased; longer than one upstream poll may take. */
  leaseMs: number;
  /**
   * The usage writer's spool: a submission whose usage record could not be
   * committed left it there, and its hold is settled once it is replayed.
   */
  usageSpool: Pick<UsageWriter, 'replaySpool'>;
}

/** What one pass of `reconcileHeldCharges` did. */
export interface HoldReconciliation {
  settled: number;
  refunded: number;
  /** A whole page was found: more may be waiting. */
  more: boolean;
}

/** Longest one upstream poll may take; leases last at least twice that (see MIN_LEASE_MS), so no two polls of a task overlap. */
const POLL_TIMEOUT_MS = 10_000;
export const MIN_LEASE_MS = 2 * POLL_TIMEOUT_MS;

/**
 * Asynchronous video generation: submission (with a held charge), the state
 * machine a poll advances, remix and content download. REST, GraphQL and the
 * background poller all go through here.
 */
export class VideoService {
  private readonly pollListeners = new Set<(at: Date) => void>();

  constructor(private readonly deps: VideoServiceDeps) {
    if (deps.leaseMs < MIN_LEASE_MS) throw new Error(`the video task lease must be at least ${MIN_LEASE_MS} ms (GATEWAY_VIDEO_LEASE_MS)`);
  }

  async submit(ctx: RequestContext, raw: unknown, endpoint: string, image?: UploadedImage): Promise<VideoTask> {
    const modelName = raw && typeof raw === 'object' ? (raw as { model?: unknown }).model : undefined;
    ctx.ticket.noteRequestedModel(modelName);
    if (typeof modelName !== 'string' || !modelName) throw Errors.validation('model', 'is required.');
    const candidates = this.deps.catalog.resolve(modelName, ctx.principal, 'videos', endpoint);
    const caps = candidates[0].model.config.video!;
    if (endpoint === VIDEO_GENERATIONS_ENDPOINT && caps.api !== 'xai') throw new GatewayError('model_not_supported_on_endpoint', `"${modelName}" is submitted with POST ${VIDEOS_ENDPOINT}.`, { param: 'model' });
    const { params, submission } = caps.api === 'xai' ? xaiParams(caps, raw) : openAIParams(caps, raw, image);
    return this.startTask(ctx, candidates, params, null, (adapter, call) => adapter.submit(call, submission));
  }

  async remix(ctx: RequestContext, id: string, raw: unknown): Promise<VideoTask> {
    const source = await this.findOwned(ctx.principal, id);
    ctx.ticket.noteRequestedModel(source.model);
    if (source.api !== 'openai') throw new GatewayError('remix_not_supported', `The model "${source.model}" does not support remix.`, { param: 'video_id' });
    if (source.status !== 'completed') throw new GatewayError('video_not_ready', `Video "${id}" is ${source.status}; only a completed video can be remixed.`, { param: 'video_id' });
    const { prompt } = parseRequest(remixSchema, raw);
    const candidate = this.candidateOf(source);
    const params: VideoTaskParams = { ...source.params, prompt };
    return this.startTask(ctx, [candidate], params, source.id, (adapter, call) => {
      if (!adapter.remix) throw new GatewayError('remix_not_supported', `The model "${source.model}" does not support remix.`);
      return adapter.remix(call, source.upstreamId!, prompt);
    });
  }

  /** A task as its owner sees it, polled at once when it is due, so a client is never slower than the background loop. */
  async get(principal: Principal, id: string): Promise<VideoTask> {
    const task = await this.findOwned(principal, id);
    if (isFinished(task.status) || task.status === 'submitting' || task.nextPollAt.getTime() > Date.now()) return task;
    const claimed = await this.deps.store.claimIfDue(this.deps.instanceId, task.id, this.deps.leaseMs);
    if (!claimed) return task;
    return (await this.advance(claimed)) ?? (await this.findOwned(principal, id));
  }

  async content(principal: Principal, id: string, variant: string, signal: AbortSignal): Promise<VideoContent> {
    const task = await this.findOwned(principal, id);
    if (task.api !== 'openai') throw new GatewayError('content_not_available', `The model "${task.model}" returns a video URL in GET ${VIDEOS_ENDPOINT}/{id}; it has no content endpoint.`);
    if (!['video', 'thumbnail', 'spritesheet'].includes(variant)) throw new GatewayError('invalid_parameter', '"variant" must be video, thumbnail or spritesheet.', { param: 'variant' });
    if (task.status !== 'completed') throw new GatewayError('video_not_ready', `Video "${id}" is ${task.status}; its content is available once completed.`);
    const candidate = this.candidateOf(task);
    const adapter = this.adapterOf(candidate);
    if (!adapter.content) throw new GatewayError('content_not_available', 'This provider serves no video content.');
    try {
      return await adapter.content(this.call(candidate, signal), task.upstreamId!, variant);
    } catch (err) {
      throw toGatewayError(err) ?? err;
    }
  }

  /** As `get`, with null for a task that is missing or another key's. */
  async find(principal: Principal, id: string): Promise<VideoTask | null> {
    try {
      return await this.get(principal, id);
    } catch (err) {
      if (err instanceof GatewayError && err.code === 'video_not_found') return null;
      throw err;
    }
  }

  /** The key's tasks, newest first, with time-and-id cursors (GraphQL). */
  page(principal: Principal, request: PageRequest, filter: VideoTaskFilter): Promise<Page<VideoTask>> {
    const after = request.after === null ? null : decodeCursor(timeIdCursor, request.after);
    return this.deps.store.page(principal.keyId, { limit: request.limit, after, order: 'desc', filter }, timeIdCursor.encode);
  }

  /**
   * `GET /v1/videos`: the key's OpenAI-style videos (xAI-style tasks are
   * read by their `request_id`), in `order` of creation; `after` is a video
   * id of the key, as OpenAI's list takes it.
   */
  async list(principal: Principal, query: VideoListQuery): Promise<Page<VideoTask>> {
    let after = null;
    if (query.after !== null) {
      after = await this.deps.store.positionOf(principal.keyId, decodeCursor(videoIdCursor, query.after));
      if (!after) throw new InvalidPageRequestError(videoIdCursor.param, videoIdCursor.refusal);
    }
    return this.deps.store.page(principal.keyId, { limit: query.limit, after, order: query.order, filter: { api: 'openai' } }, (task) => task.id);
  }

  /**
   * Deletes a finished task of the key (OpenAI deletes only completed or
   * failed videos; a task still generating is refused with 409): first the
   * upstream's copy of the video where the protocol keeps one (OpenAI
   * Videos; one the upstream no longer has is fine), then the task, which is
   * missing to every read from then on. An upstream that fails the deletion
   * leaves the task as it was, to be deleted again. The usage record and its
   * ledger entries stay, and so does the row behind them, without the prompt
   * and the result's URL.
   */
  async delete(principal: Principal, id: string, signal: AbortSignal): Promise<void> {
    const task = await this.findOwned(principal, id);
    if (!isFinished(task.status)) {
      throw new GatewayError('video_not_ready', `Video "${id}" is still being generated; a video can be deleted once it has completed or failed.`, { param: 'video_id' });
    }
    await this.deleteUpstreamCopy(task, signal);
    // Another request deleted it meanwhile: this one finds it missing, as any later one would.
    if (!(await this.deps.store.markDeleted(principal.keyId, task.id))) throw videoNotFound(id);
  }

  async findOwned(principal: Principal, id: string): Promise<VideoTask> {
    const task = await this.deps.store.findForKey(principal.keyId, id);
    if (!task) throw videoNotFound(id);
    return task;
  }

  /** The upstream's copy of a finished task's video, removed over the route that made it (never another provider's). */
  private async deleteUpstreamCopy(task: VideoTask, signal: AbortSignal): Promise<void> {
    if (!task.upstreamId) return;
    const route = this.deps.catalog.model(task.model)?.routes.find((r) => r.provider.name === task.provider && r.upstreamModel === task.upstreamModel);
    if (!route) {
      this.deps.logger.warn('the route that made a deleted video is no longer in the catalog; its upstream copy expires on its own', { task_id: task.id, provider: task.provider });
      return;
    }
    const adapter = videoAdapterFor(route.provider.type);
    if (!adapter?.delete) return;
    try {
      await Deadline.run(POLL_TIMEOUT_MS, [signal], (deadline) => adapter.delete!({ provider: route.provider, upstreamModel: route.upstreamModel, signal: deadline.signal }, task.upstreamId!));
    } catch (err) {
      if (err instanceof UpstreamError && err.details.status === 404) return; // gone upstream already
      if (task.status === 'expired' && err instanceof UpstreamError && !err.details.retryable) {
        // The gateway gave up on this task while the upstream may still be at it, and may refuse to delete it: its copy expires there on its own.
        this.deps.logger.warn('the upstream refused to delete an expired video; deleting the task all the same', { task_id: task.id, provider: task.provider, upstream_status: err.details.status });
        return;
      }
      throw toGatewayError(err) ?? err;
    }
  }

  /**
   * One step of a leased task: poll the upstream once and move the task to
   * what it said, by compare-and-set. Returns the new row, or null when
   * another writer advanced the task first (then nothing is overwritten).
   */
  async advance(task: VideoTask, stop?: AbortSignal): Promise<VideoTask | null> {
    const now = Date.now();
    if (task.status === 'submitting') {
      return this.finish(task, 'failed', { error: taskError('submission_interrupted') });
    }
    // Past the deadline the task still gets this one last poll: a video that did finish is not thrown away.
    const pastDeadline = now >= task.deadlineAt.getTime();
    const timedOut = () => this.finish(task, 'expired', { error: taskError('generation_timeout') });
    const candidate = this.candidateOf(task);
    const schedule = scheduleOf(candidate);
    let poll: VideoPoll;
    try {
      this.deps.routing.metrics.videoPolls.inc({ provider: task.provider });
      const span = pollSpan(this.deps.routing.tracing, task, candidate);
      poll = await Deadline.run(POLL_TIMEOUT_MS, [stop], (deadline) => inSpan(span, () => this.adapterOf(candidate).poll(this.call(candidate, deadline.signal, span), task.upstreamId!)));
    } catch (err) {
      if (stop?.aborted) return null; // shutting down: the lease runs out and another poller takes the task
      if (err instanceof UpstreamError && !err.details.retryable) {
        // The upstream's words stay in the log: they may name a credential or an internal host.
        this.deps.logger.warn('the upstream refused a video task poll; failing the task', {
          task_id: task.id, provider: task.provider, upstream_status: err.details.status, upstream_code: err.details.code ?? null, reason: err.message,
        });
        return this.finish(task, 'failed', { error: taskError('upstream_error') });
      }
      if (pastDeadline) return timedOut();
      this.deps.logger.warn('video poll failed; will retry', { task_id: task.id, reason: (err as Error).message });
      const retryAfterSeconds = err instanceof UpstreamError ? err.details.retryAfterSeconds : undefined;
      const next = nextPollAt(schedule, { pollCount: task.pollCount + 1, dueAt: task.nextPollAt.getTime(), now, retryAfterSeconds });
      return this.scheduled(await this.deps.store.compareAndSet(task, { pollCount: task.pollCount + 1, nextPollAt: next }));
    }
    const s = poll.status;
    if (s.state === 'completed') {
      return this.finish(task, 'completed', { result: { url: s.videoUrl, durationSeconds: s.durationSeconds, respectModeration: s.respectModeration } });
    }
    if (s.state === 'failed') {
      this.deps.logger.warn('the upstream reported a failed video generation', {
        task_id: task.id, provider: task.provider, upstream_code: s.error.code, reason: s.error.message,
      });
      return this.finish(task, 'failed', { error: upstreamFailure(s.error) });
    }
    if (s.state === 'expired') return this.finish(task, 'expired', { error: taskError('expired') });
    if (pastDeadline) return timedOut();
    const status = s.upstreamStatus === 'queued' && !s.progress ? 'queued' : 'in_progress';
    const next = nextPollAt(schedule, {
      pollCount: task.pollCount + 1, dueAt: task.nextPollAt.getTime(), now, startedAt: task.createdAt.getTime(), progress: s.progress, retryAfterSeconds: poll.retryAfterSeconds,
    });
    const updated = this.scheduled(await this.deps.store.compareAndSet(task, { status, progress: s.progress ?? task.progress, pollCount: task.pollCount + 1, nextPollAt: next }));
    if (updated && (updated.status !== task.status || updated.progress !== task.progress)) this.deps.events.publish(updated);
    return updated;
  }

  /**
   * Moves a task to a final state and ends its charge in the same
   * transaction: settled on completion (a moderated video is a completed
   * generation, so it is charged too), refunded on failure or expiry. A
   * usage record that is not in the database yet (its commit failed and it
   * went to the spool) is replayed and its hold ended right after; one
   * spooled by another instance is left to `reconcileHeldCharges`.
   */
  private async finish(task: VideoTask, status: 'completed' | 'failed' | 'expired', outcome: { result?: VideoTaskResult; error?: VideoTaskError }): Promise<VideoTask | null> {
    let holdEnded = false;
    const updated = await this.deps.store.compareAndSet(
      task,
      {
        status,
        progress: status === 'completed' ? 100 : task.progress,
        result: outcome.result,
        error: outcome.error,
        completedAt: new Date(),
        pollCount: task.pollCount + (task.upstreamId ? 1 : 0),
      },
      async (tx) => {
        holdEnded = await endHold(tx, { requestId: task.requestId, status, params: task.params, result: outcome.result ?? null });
      },
    );
    if (updated) {
      if (!holdEnded) await this.endHoldAfterReplay(updated);
      this.deps.routing.metrics.videoTasksFinished.inc({ model: task.model, status });
      this.deps.events.publish(updated);
    }
    return updated;
  }

  /**
   * The hold of a final task whose usage record was not in the database
   * when the task ended: this instance's spool is replayed (the record is
   * there when this instance's commit of it failed) and the hold ended in a
   * transaction of its own. Ending a hold is conditional on it still being
   * held, so this, the transition and the sweeper never end one twice. A
   * record spooled by another instance shows up once that instance replays
   * it, and `reconcileHeldCharges` ends it then.
   */
  private async endHoldAfterReplay(task: VideoTask): Promise<void> {
    if (!isFinished(task.status)) return;
    try {
      await this.deps.usageSpool.replaySpool();
      const ended = await this.deps.store.inTransaction((tx) => endHold(tx, task));
      if (ended) this.deps.logger.info('held charge ended after replaying the usage spool', { task_id: task.id, request_id: task.requestId, status: task.status });
    } catch (err) {
      this.deps.logger.warn('could not end the held charge of a finished task; the sweeper will', { task_id: task.id, request_id: task.requestId, err });
    }
  }

  /**
   * The sweeper's pass: replays this instance's usage spool, then ends every
   * hold whose task is already final (settled for the seconds delivered when
   * completed, refunded when failed or expired) - a record that reached the
   * database only after its task ended, from this instance's spool or
   * another's. Idempotent and safe on several instances at once: each hold
   * is ended by a conditional update that only one of them wins.
   */
  async reconcileHeldCharges(limit = 100): Promise<HoldReconciliation> {
    try {
      await this.deps.usageSpool.replaySpool();
    } catch (err) {
      this.deps.logger.warn('usage spool replay failed; holds already in the database are still reconciled', { err });
    }
    const tasks = await this.deps.store.finishedTasksWithHeldCharge(limit);
    const done: HoldReconciliation = { settled: 0, refunded: 0, more: tasks.length === limit };
    for (const task of tasks) {
      let ended: boolean;
      try {
        ended = await this.deps.store.inTransaction((tx) => endHold(tx, task));
      } catch (err) {
        this.deps.logger.error('could not end the held charge of a finished task', { task_id: task.id, request_id: task.requestId, err });
        continue;
      }
      if (!ended) continue; // another instance ended it first
      if (task.status === 'completed') done.settled++;
      else done.refunded++;
      this.deps.logger.info('held charge of a finished task reconciled', {
        task_id: task.id, request_id: task.requestId, status: task.status, billing_state: task.status === 'completed' ? 'settled' : 'refunded',
      });
    }
    return done;
  }

  /**
   * Submits a task over the first route that accepts it. The row is written
   * before the upstream call, so a crash mid-submit leaves a task the poller
   * can close; a route that fails before accepting it moves the row to the
   * next route, and the last failure closes it as `submission_failed`.
   */
  private async startTask(
    ctx: RequestContext,
    candidates: Candidate[],
    params: VideoTaskParams,
    remixedFrom: string | null,
    send: (adapter: VideoAdapter, call: VideoCall) => Promise<{ upstreamId: string }>,
  ): Promise<VideoTask> {
    const first = candidates[0];
    const { timeout_ms: timeoutMs } = first.model.config.video!.polling;
    // The worst case is the task's price: its seconds, on the dearest route.
    await ctx.spend.place(pricedRoutes(candidates), { promptTokens: 0, outputCap: 0, dimensions: [{ name: params.billingDimension, quantity: params.durationSeconds, unit: 'seconds' }] }, { outlivesCall: true });
    const now = Date.now();
    const id = newVideoId();
    let task = await this.deps.store.create({
      id, keyId: ctx.principal.keyId, accountId: ctx.principal.accountId, requestId: ctx.requestId,
      model: first.model.id, api: first.model.config.video!.api, ...routeColumns(first), status: 'submitting',
      params, remixedFrom,
      nextPollAt: new Date(now + first.route.provider.timeoutMs + 30_000), deadlineAt: new Date(now + timeoutMs),
    });
    let upstreamId: string;
    let accepting = first;
    try {
      upstreamId = await tryRoutes(ctx, this.deps.routing, candidates, async (attempt) => {
        const { candidate } = attempt;
        accepting = candidate;
        if (attempt.number > 1) {
          // The next route gets its own recovery window; a task the poller closed meanwhile is not submitted again.
          const rerouted = await this.deps.store.compareAndSet(task, { ...routeColumns(candidate), nextPollAt: new Date(Date.now() + candidate.route.provider.timeoutMs + 30_000) });
          if (!rerouted) throw new GatewayError('submission_interrupted', 'The gateway closed this task while trying another route; it was not charged. Submit it again.');
          task = rerouted;
        }
        // Not the client's signal: a submission the upstream may already have accepted is seen through, not abandoned.
        const accepted = await Deadline.run(candidate.route.provider.timeoutMs, [], (deadline) => send(this.adapterOf(candidate), this.call(candidate, deadline.signal, attempt.span)));
        await ctx.ticket.settle(settlementOf(attempt, {
          statusCode: 200,
          usage: {
            promptTokens: 0,
            completionTokens: 0,
            dimensions: [{ name: params.billingDimension, quantity: params.durationSeconds, unit: 'seconds' }],
            measurement: { input: 'unavailable', output: 'local_estimate' },
            providerUsage: { family: candidate.route.provider.type, raw_fields: {} },
          },
          charge: true,
          ttftMs: null,
          wasStreaming: false,
          errorCode: null,
          heldForTask: id,
        }));
        return accepted.upstreamId;
      }, { mayFallBack: refusedBeforeAccepting });
    } catch (err) {
      // The client of this request hears the error itself; the task (read later, by REST and GraphQL) says only that it was refused.
      ctx.logger.warn('video submission failed', { task_id: id, reason: (err as Error).message, code: (err as { code?: unknown }).code });
      await this.deps.store.compareAndSet(task, { status: 'failed', error: taskError('submission_failed'), completedAt: new Date() });
      throw err;
    }
    // The first poll follows the route that accepted the task (the simulator's clock, or the model's).
    const queued = this.scheduled(await this.deps.store.compareAndSet(task, { status: 'queued', upstreamId, nextPollAt: firstPollAt(scheduleOf(accepting), Date.now()) }));
    if (!queued) {
      // The submission outlived its recovery window and the task was already closed as interrupted.
      const closed = await this.deps.store.findForKey(ctx.principal.keyId, id);
      if (closed) await this.endHoldAfterReplay(closed);
      throw new GatewayError('submission_interrupted', 'The upstream took too long to accept the task; it was not charged. Submit it again.');
    }
    this.deps.routing.metrics.videoTasksSubmitted.inc({ model: task.model });
    this.deps.events.publish(queued);
    return queued;
  }

  /**
   * Hears the next poll time of every task this instance schedules, so its
   * poller can wake for it instead of at its idle pace. Returns the undo.
   */
  onPollScheduled(listener: (at: Date) => void): () => void {
    this.pollListeners.add(listener);
    return () => this.pollListeners.delete(listener);
  }

  /** Tells the listeners when a task that is still running is due next; returns the task. */
  private scheduled(task: VideoTask | null): VideoTask | null {
    if (task && !isFinished(task.status)) for (const listener of this.pollListeners) listener(task.nextPollAt);
    return task;
  }

  private candidateOf(task: VideoTask): Candidate {
    const model = this.deps.catalog.model(task.model);
    const route = model?.routes.find((r) => r.provider.name === task.provider && r.upstreamModel === task.upstreamModel) ?? model?.routes[0];
    if (!model || !route) throw new GatewayError('model_removed', `The model "${task.model}" of this task is no longer in the catalog.`);
    return { model, route };
  }

  private adapterOf(candidate: Candidate): VideoAdapter {
    const adapter = videoAdapterFor(candidate.route.provider.type);
    if (!adapter) throw Errors.providerNotSupported(candidate.route.provider.type, 'video');
    return adapter;
  }

  private call(candidate: Candidate, signal: AbortSignal, span?: Span): VideoCall {
    return { provider: candidate.route.provider, upstreamModel: candidate.route.upstreamModel, signal, span };
  }
}

/** What `GET /v1/videos` asks for. */
export interface VideoListQuery {
  limit: number;
  after: string | null;
  order: 'asc' | 'desc';
}

function videoNotFound(id: string): GatewayError {
  return new GatewayError('video_not_found', `No video task "${id}" for this API key.`, { param: 'video_id' });
}

/**
 * Whether a failed submission certainly left no job upstream, so another
 * route may be tried: a refused connection or an answer that refused it. A
 * time-out or a connection cut after sending may hide an accepted job.
 */
function refusedBeforeAccepting(err: unknown): boolean {
  return !(err instanceof UpstreamError) || (err.details.cause !== 'timeout' && err.details.cause !== 'stream_cut');
}

/** Whole seconds delivered: an upstream may report 5.9 for a 6 s request. */
function deliveredSeconds(params: VideoTaskParams, result: VideoTaskResult | null): number {
  return Math.round(result?.durationSeconds ?? params.durationSeconds);
}

/**
 * Ends the held charge of a task in its final state, inside `tx`: settled
 * for the seconds delivered when it completed, refunded otherwise. False
 * when there is no held record (never charged, already ended, or not in the
 * database yet).
 */
function endHold(
  tx: Parameters<typeof settleHeldCharge>[0],
  task: { requestId: string; status: string; params: VideoTaskParams; result: VideoTaskResult | null },
): Promise<boolean> {
  return task.status === 'completed'
    ? settleHeldCharge(tx, task.requestId, task.params.durationSeconds, deliveredSeconds(task.params, task.result))
    : refundHeldCharge(tx, task.requestId);
}

/** Media type, size and digest of an inline start frame: what is kept of it once the upstream has it. */
function inlineImageDigest(dataUrl: string): NonNullable<VideoTaskParams['imageData']> {
  return {
    mediaType: /^data:([^;,]+)/i.exec(dataUrl)![1].toLowerCase(),
    bytes: Buffer.byteLength(dataUrl),
    sha256: createHash('sha256').update(dataUrl).digest('hex'),
  };
}

function scheduleOf(candidate: Candidate): PollSchedule {
  return pollScheduleFor(candidate.model.config.video!, candidate.route.provider);
}

/** The columns that name the route a task is served by. */
function routeColumns(candidate: Candidate) {
  return { provider: candidate.route.provider.name, upstreamModel: candidate.route.upstreamModel, lane: candidate.route.lane };
}

function xaiParams(caps: VideoCapabilities, raw: unknown): { params: VideoTaskParams; submission: VideoSubmission } {
  const body = parseRequest(xaiSubmissionSchema(caps), raw);
  const params: VideoTaskParams = {
    prompt: body.prompt, durationSeconds: body.duration, resolution: body.resolution, aspectRatio: body.aspect_ratio,
    billingDimension: `video_seconds_${body.resolution}`,
    // An inline image is sent upstream from memory and never stored: only its digest stays with the task.
    ...(body.image ? (isDataUrl(body.image.url) ? { imageData: inlineImageDigest(body.image.url) } : { imageUrl: body.image.url }) : {}),
  };
  return {
    params,
    submission: { prompt: body.prompt, durationSeconds: body.duration, resolution: body.resolution, aspectRatio: body.aspect_ratio, image: body.image ? { url: body.image.url } : undefined },
  };
}

function isDataUrl(url: string): boolean {
  return /^data:/i.test(url);
}

function openAIParams(caps: VideoCapabilities, raw: unknown, image?: UploadedImage): { params: VideoTaskParams; submission: VideoSubmission } {
  const body = parseRequest(openAISubmissionSchema(caps), raw);
  const durationSeconds = Number(body.seconds);
  const params: VideoTaskParams = {
    prompt: body.prompt, durationSeconds, seconds: body.seconds, size: body.size,
    inputReference: image ? { filename: image.filename, contentType: image.contentType, bytes: image.data.length } : undefined,
    billingDimension: `video_seconds_${caps.size_classes[body.size] ?? body.size}`,
  };
  return { params, submission: { prompt: body.prompt, durationSeconds, size: body.size, image: image ? { file: image } : undefined } };
}

/** One upstream poll of a task, as a trace of its own while traces are on (the poller runs outside any request). */
function pollSpan(tracing: Tracing, task: VideoTask, candidate: Candidate): Span | undefined {
  return tracing.rootSpan(`poll ${task.model}`, {
    kind: SpanKind.CLIENT,
    attributes: () => ({
      'gen_ai.operation.name': 'generate_content',
      'gen_ai.provider.name': genAiProvider(candidate.route.provider.type),
      'gen_ai.request.model': task.model,
      'gen_ai.response.model': candidate.route.upstreamModel,
      'gateway.task_id': task.id,
    }),
  });
}
