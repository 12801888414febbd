import type { Database } from '../../src/db/database';
import type { UsageRecordRow } from '../../src/billing/usage-record';

/** A small deterministic generator (mulberry32): the same seed gives the same records on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SampleKey {
  id: string;
  accountId: string;
  projectId: string | null;
  memberId: string | null;
}

/** Three accounts, their projects and members, and keys spread over them (some with no project or member). */
export const SAMPLE_KEYS: SampleKey[] = [
  { id: 'key_a1', accountId: 'acct_a', projectId: 'proj_a1', memberId: 'mem_a1' },
  { id: 'key_a2', accountId: 'acct_a', projectId: 'proj_a1', memberId: null },
  { id: 'key_a3', accountId: 'acct_a', projectId: 'proj_a2', memberId: 'mem_a2' },
  { id: 'key_b1', accountId: 'acct_b', projectId: null, memberId: 'mem_b1' },
  { id: 'key_b2', accountId: 'acct_b', projectId: 'proj_b1', memberId: 'mem_b1' },
  { id: 'key_c1', accountId: 'acct_c', projectId: null, memberId: null },
];

/** The accounts, projects, members and keys of SAMPLE_KEYS, so that project and member groupings have something to find. */
export async function insertSampleKeys(db: Pick<Database, 'query'>): Promise<void> {
  const accounts = [...new Set(SAMPLE_KEYS.map((k) => k.accountId))];
  for (const id of accounts) await db.query('INSERT INTO "accounts" ("id", "name") VALUES ($1, $1) ON CONFLICT DO NOTHING', [id]);
  for (const k of SAMPLE_KEYS) {
    if (k.projectId) await db.query('INSERT INTO "projects" ("id", "account_id", "name") VALUES ($1, $2, $1) ON CONFLICT DO NOTHING', [k.projectId, k.accountId]);
    if (k.memberId) await db.query('INSERT INTO "members" ("id", "account_id", "name") VALUES ($1, $2, $1) ON CONFLICT DO NOTHING', [k.memberId, k.accountId]);
    await db.query(
      'INSERT INTO "api_keys" ("id", "account_id", "project_id", "member_id", "name", "key_hash", "key_prefix") VALUES ($1, $2, $3, $4, $1, $1, $1) ON CONFLICT DO NOTHING',
      [k.id, k.accountId, k.projectId, k.memberId],
    );
  }
}

const MODELS = ['gpt-4.1-mini', 'gpt-4.1', 'claude-sonnet', 'text-embedding-3-small'];
const ENDPOINTS = ['/v1/chat/completions', '/v1/responses', '/v1/embeddings'];
const STATUSES = [200, 200, 200, 200, 400, 429, 502];

/**
 * `count` usage records spread at random (to the millisecond) over `days`
 * UTC days from `start`, over SAMPLE_KEYS, models, endpoints and statuses;
 * failed ones uncharged, like the gateway's.
 */
export function sampleRecords(opts: { count: number; seed: number; start: Date; days: number; prefix?: string }): UsageRecordRow[] {
  const random = seededRandom(opts.seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  return Array.from({ length: opts.count }, (_, i) => {
    const key = pick(SAMPLE_KEYS);
    const statusCode = pick(STATUSES);
    const promptTokens = Math.floor(random() * 5000);
    const completionTokens = statusCode < 400 ? Math.floor(random() * 2000) : 0;
    const createdAt = new Date(opts.start.getTime() + Math.floor(random() * opts.days * 86_400_000));
    return sampleRecord({
      id: `req_${opts.prefix ?? 's'}${opts.seed}_${i}`,
      keyId: key.id,
      accountId: key.accountId,
      createdAt,
      model: pick(MODELS),
      endpoint: pick(ENDPOINTS),
      statusCode,
      promptTokens,
      completionTokens,
      amountMicrousd: statusCode < 400 ? BigInt(promptTokens * 3 + completionTokens * 12) : 0n,
    });
  });
}

/** A final (not held) record with the given figures and the rest plain. */
export function sampleRecord(r: Pick<UsageRecordRow, 'id' | 'keyId' | 'accountId' | 'createdAt' | 'model' | 'endpoint' | 'statusCode' | 'promptTokens' | 'completionTokens' | 'amountMicrousd'> & Partial<UsageRecordRow>): UsageRecordRow {
  return {
    totalTokens: r.promptTokens + r.completionTokens,
    measurement: { input: 'provider', output: 'provider' },
    dimensions: [],
    currency: 'USD',
    pricingVersion: 1,
    lineItems: [],
    routing: { status_code: r.statusCode, total_duration_ms: 1, ttft_ms: null, was_streaming: false },
    providerUsage: { family: 'openai', raw_fields: {} },
    logId: `log_${r.id}`,
    servedBy: null,
    errorCode: r.statusCode < 400 ? null : 'upstream_error',
    billingState: 'final',
    taskId: null,
    heldMicrousd: null,
    holdId: null,
    parentKeyId: null,
    ...r,
  };
}
