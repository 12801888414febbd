import type { Database } from '../db/database';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { pageOf, type Page } from '../db/page';
import type { TimeIdPosition } from '../db/time-id-cursor';
import { isWellFormedId } from '../db/well-formed-id';
import { toVideoTask, type VideoTask, type VideoTaskParams } from './video-task';
import { changeAssignments, rowToVideoTask, type TaskChanges } from './video-task-row';

/** A new task's columns: the row's own, with `params` in its known shape. */
export type NewVideoTask = Omit<Prisma.VideoTaskUncheckedCreateInput, 'params' | 'result' | 'error'> & { params: VideoTaskParams };

export interface VideoTaskFilter {
  status?: string[];
  model?: string;
  /** Only the tasks of one wire shape (`GET /v1/videos` lists the OpenAI-style ones). */
  api?: 'openai' | 'xai';
}

/** A page of a key's tasks: at most `limit`, after the task at `after` in `order` of creation. */
export interface VideoTaskPageQuery {
  limit: number;
  after: TimeIdPosition | null;
  order: 'asc' | 'desc';
  filter: VideoTaskFilter;
}

/** What a poller's claim took, and when the next task not taken is due. */
export interface DueClaim {
  tasks: VideoTask[];
  /** Milliseconds until the soonest unfinished task not yet due is due; null when there is none. */
  soonestDueInMs: number | null;
}

/**
 * Video tasks in the database, claimed by pollers with row leases so that
 * several gateway instances never poll one task at once, and changed only by
 * compare-and-set on `version` so a slower poller never overwrites a newer
 * state.
 */
export class VideoTaskStore {
  private readonly prisma: PrismaClient;

  constructor(private readonly db: Pick<Database, 'prisma' | 'query'>) {
    this.prisma = db.prisma;
  }

  /** How many tasks are in each state, for the metrics (one grouped count, when scraped). */
  async countByState(): Promise<Array<{ state: string; count: number }>> {
    const { rows } = await this.db.query<{ status: string; count: string }>('SELECT "status", count(*)::text AS "count" FROM "video_tasks" GROUP BY "status"', []);
    return rows.map((r) => ({ state: r.status, count: Number(r.count) }));
  }

  async create(data: NewVideoTask): Promise<VideoTask> {
    return toVideoTask(await this.prisma.videoTask.create({ data }));
  }

  /** A task as its owner sees it; another key's task, or a deleted one, is indistinguishable from a missing one. */
  async findForKey(keyId: string, id: string): Promise<VideoTask | null> {
    if (!isWellFormedId(id)) return null;
    const task = await this.prisma.videoTask.findUnique({ where: { id } });
    return task && task.keyId === keyId && task.deletedAt === null ? toVideoTask(task) : null;
  }

  /** Where a task of the key stands in its lists, deleted or not (a page may go on after a task deleted since); null when the key has no such task. */
  async positionOf(keyId: string, id: string): Promise<TimeIdPosition | null> {
    if (!isWellFormedId(id)) return null;
    const task = await this.prisma.videoTask.findUnique({ where: { id }, select: { id: true, keyId: true, createdAt: true } });
    return task && task.keyId === keyId ? { createdAt: task.createdAt, id: task.id } : null;
  }

  /**
   * Deletes a finished task of the key: missing to every read from now on,
   * its prompt, start image URL, uploaded image's name and result URL
   * forgotten in the same statement. The row stays for its usage record.
   * False when the key has no such finished task (missing, running, or
   * deleted already).
   */
  async markDeleted(keyId: string, id: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE "video_tasks" SET "deleted_at" = now(), "updated_at" = now(), "version" = "version" + 1,
         "params" = jsonb_set("params" - 'imageUrl' - 'inputReference', '{prompt}', '""'::jsonb),
         "result" = CASE WHEN "result" IS NULL THEN NULL ELSE "result" - 'url' END
       WHERE "id" = $1 AND "key_id" = $2 AND "deleted_at" IS NULL AND "status" IN ('completed', 'failed', 'expired')`,
      [id, keyId],
    );
    return rowCount === 1;
  }

  /**
   * Leases up to `limit` due, unfinished, unleased tasks to `owner`.
   * `FOR UPDATE SKIP LOCKED` lets concurrent claimers take disjoint sets.
   * Also says how soon the next unfinished task falls due (by the database's
   * clock, the one that decides what is due), so an idle poller can wake then.
   */
  async claimDue(owner: string, limit: number, leaseMs: number): Promise<DueClaim> {
    // Through the driver: an idle instance runs this every round, and it should cost one round trip, nothing more.
    const { rows } = await this.db.query<Record<string, unknown>>(
      `WITH "claimed" AS (
         UPDATE "video_tasks" SET "lease_owner" = $1, "lease_until" = now() + make_interval(secs => $2::double precision / 1000)
         WHERE "id" IN (
           SELECT "id" FROM "video_tasks"
           WHERE "status" IN ('submitting', 'queued', 'in_progress') AND "next_poll_at" <= now()
             AND ("lease_until" IS NULL OR "lease_until" < now())
           ORDER BY "next_poll_at" LIMIT $3
           FOR UPDATE SKIP LOCKED)
         RETURNING *
       ), "soonest" AS (
         SELECT (extract(epoch FROM min("next_poll_at") - now()) * 1000)::float8 AS "soonest_due_in_ms" FROM "video_tasks"
         WHERE "status" IN ('submitting', 'queued', 'in_progress') AND "next_poll_at" > now()
       )
       SELECT "claimed".*, "soonest"."soonest_due_in_ms" FROM "soonest" LEFT JOIN "claimed" ON true`,
      [owner, leaseMs, limit],
    );
    const soonest = rows[0]?.soonest_due_in_ms;
    return { tasks: rows.filter((row) => row.id !== null).map(rowToVideoTask), soonestDueInMs: soonest === null || soonest === undefined ? null : Number(soonest) };
  }

  /** Leases one task if it is due and nobody holds it (a client's GET of a due task). */
  async claimIfDue(owner: string, id: string, leaseMs: number): Promise<VideoTask | null> {
    const { rows } = await this.db.query<Record<string, unknown>>(
      `UPDATE "video_tasks" SET "lease_owner" = $1, "lease_until" = now() + make_interval(secs => $2::double precision / 1000)
       WHERE "id" = $3 AND "status" IN ('queued', 'in_progress') AND "next_poll_at" <= now()
         AND ("lease_until" IS NULL OR "lease_until" < now())
       RETURNING *`,
      [owner, leaseMs, id],
    );
    return rows.length ? rowToVideoTask(rows[0]) : null;
  }

  /**
   * Applies `changes` only if the task is still at `version` (and still
   * leased to the same owner, when it was claimed), bumping the
   * version and releasing the lease; `alsoInTransaction` runs in the same
   * transaction when the change wins (the billing of a finished task).
   * Returns the new row, or null when another writer got there first.
   */
  async compareAndSet(
    task: Pick<VideoTask, 'id' | 'version' | 'leaseOwner'>,
    changes: TaskChanges,
    alsoInTransaction?: (tx: Prisma.TransactionClient) => Promise<void>,
  ): Promise<VideoTask | null> {
    if (!alsoInTransaction) return this.compareAndSetAlone(task, changes);
    return this.prisma.$transaction(async (tx) => {
      const { count } = await tx.videoTask.updateMany({
        // A leased task changes only under its lease: a poller whose lease ran out and was taken over writes nothing.
        where: { id: task.id, version: task.version, ...(task.leaseOwner ? { leaseOwner: task.leaseOwner } : {}) },
        data: { ...(changes as Prisma.VideoTaskUncheckedUpdateManyInput), version: { increment: 1 }, updatedAt: new Date(), leaseOwner: null, leaseUntil: null },
      });
      if (count !== 1) return null;
      await alsoInTransaction(tx);
      const row = await tx.videoTask.findUnique({ where: { id: task.id } });
      return row && toVideoTask(row);
    });
  }

  /** The common case (a poll that found the task still running): one statement, one round trip. */
  private async compareAndSetAlone(task: Pick<VideoTask, 'id' | 'version' | 'leaseOwner'>, changes: TaskChanges): Promise<VideoTask | null> {
    const { sql, params } = changeAssignments(changes, 4);
    const { rows } = await this.db.query<Record<string, unknown>>(
      `UPDATE "video_tasks" SET ${[...sql, '"version" = "version" + 1', '"updated_at" = now()', '"lease_owner" = NULL', '"lease_until" = NULL'].join(', ')}
       WHERE "id" = $1 AND "version" = $2 AND ($3::text IS NULL OR "lease_owner" = $3)
       RETURNING *`,
      [task.id, task.version, task.leaseOwner ?? null, ...params],
    );
    return rows.length ? rowToVideoTask(rows[0]) : null;
  }

  /** Runs `fn` in a transaction of its own (ending the hold of a task that is already final). */
  inTransaction<T>(fn: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  /**
   * Final tasks whose usage record is still `held`: records that reached
   * the database after their task ended (replayed from a spool). Oldest
   * first; the partial index `usage_records_held_idx` keeps this cheap
   * however many records there are.
   */
  async finishedTasksWithHeldCharge(limit: number): Promise<VideoTask[]> {
    const { rows } = await this.db.query<Record<string, unknown>>(
      `SELECT t.* FROM "usage_records" u JOIN "video_tasks" t ON t."id" = u."task_id"
       WHERE u."billing_state" = 'held' AND t."status" IN ('completed', 'failed', 'expired')
       ORDER BY u."created_at" LIMIT $1`,
      [limit],
    );
    return rows.map(rowToVideoTask);
  }

  /** A page of the key's tasks (never another key's, never a deleted one) in order of creation; `cursorOf` writes each task's cursor in the list's dialect. */
  async page(keyId: string, query: VideoTaskPageQuery, cursorOf: (task: TimeIdPosition) => string): Promise<Page<VideoTask>> {
    const { filter, order } = query;
    const where: Prisma.VideoTaskWhereInput = { keyId, deletedAt: null };
    if (filter.status?.length) where.status = { in: filter.status.includes('queued') ? [...filter.status, 'submitting'] : filter.status };
    if (filter.model) where.model = filter.model;
    if (filter.api) where.api = filter.api;
    if (query.after) {
      const { createdAt, id } = query.after;
      const beyond = order === 'desc' ? 'lt' : 'gt';
      where.OR = [{ createdAt: { [beyond]: createdAt } }, { createdAt, id: { [beyond]: id } }];
    }
    const rows = await this.prisma.videoTask.findMany({ where, orderBy: [{ createdAt: order }, { id: order }], take: query.limit + 1 });
    return pageOf(rows, query.limit, toVideoTask, cursorOf);
  }
}
