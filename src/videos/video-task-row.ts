import type { VideoTask as VideoTaskRow } from '../generated/prisma/client';
import { toVideoTask, type VideoTask, type VideoTaskError, type VideoTaskResult } from './video-task';

/** The fields a state change writes (compare-and-set), by their column. */
export interface TaskChanges {
  status?: string;
  progress?: number;
  pollCount?: number;
  nextPollAt?: Date;
  upstreamId?: string;
  provider?: string;
  upstreamModel?: string;
  lane?: string;
  result?: VideoTaskResult;
  error?: VideoTaskError;
  completedAt?: Date;
}

const CHANGE_COLUMNS: Record<keyof TaskChanges, { column: string; json?: true }> = {
  status: { column: 'status' },
  progress: { column: 'progress' },
  pollCount: { column: 'poll_count' },
  nextPollAt: { column: 'next_poll_at' },
  upstreamId: { column: 'upstream_id' },
  provider: { column: 'provider' },
  upstreamModel: { column: 'upstream_model' },
  lane: { column: 'lane' },
  result: { column: 'result', json: true },
  error: { column: 'error', json: true },
  completedAt: { column: 'completed_at' },
};

/** `"column" = $n` assignments for `changes`, numbering parameters from `firstParam`. */
export function changeAssignments(changes: TaskChanges, firstParam: number): { sql: string[]; params: unknown[] } {
  const sql: string[] = [];
  const params: unknown[] = [];
  for (const [field, value] of Object.entries(changes) as Array<[keyof TaskChanges, unknown]>) {
    if (value === undefined) continue;
    const { column, json } = CHANGE_COLUMNS[field];
    params.push(json ? JSON.stringify(value) : value instanceof Date ? value.toISOString() : value);
    sql.push(`"${column}" = $${firstParam + params.length - 1}${json ? '::jsonb' : ''}`);
  }
  return { sql, params };
}

type TaskRow = Record<string, unknown>;

/** A `video_tasks` row as the driver returns it (`RETURNING *`), as a task. */
export function rowToVideoTask(row: TaskRow): VideoTask {
  return toVideoTask(driverRowToPrismaShape(row));
}

function driverRowToPrismaShape(row: TaskRow): VideoTaskRow {
  const date = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));
  return {
    id: row.id as string,
    keyId: row.key_id as string,
    accountId: row.account_id as string,
    requestId: row.request_id as string,
    model: row.model as string,
    api: row.api as string,
    provider: row.provider as string,
    upstreamModel: row.upstream_model as string,
    lane: row.lane as string,
    upstreamId: (row.upstream_id as string | null) ?? null,
    status: row.status as string,
    progress: Number(row.progress),
    params: row.params as VideoTaskRow['params'],
    result: (row.result ?? null) as VideoTaskRow['result'],
    error: (row.error ?? null) as VideoTaskRow['error'],
    remixedFrom: (row.remixed_from as string | null) ?? null,
    version: Number(row.version),
    pollCount: Number(row.poll_count),
    nextPollAt: date(row.next_poll_at)!,
    deadlineAt: date(row.deadline_at)!,
    leaseOwner: (row.lease_owner as string | null) ?? null,
    leaseUntil: date(row.lease_until),
    createdAt: date(row.created_at)!,
    updatedAt: date(row.updated_at)!,
    completedAt: date(row.completed_at),
    deletedAt: date(row.deleted_at),
  };
}
