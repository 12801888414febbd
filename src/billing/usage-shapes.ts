import { createHash } from 'node:crypto';
import type { Database } from '../db/database';
import { joinUsageRecordParts, type UsageRecordParts } from './usage-record-figures';

/**
 * The `usage_shapes` dictionary, both ways, kept in memory: a shape never
 * changes once stored, so an id or a skeleton read once is good for the
 * life of the process. A shape not seen yet costs one statement for every
 * new shape of a batch (an upsert, which two instances may run at once for
 * the same shape: both get its one id); after that, none.
 */
export class UsageShapes {
  private readonly ids = new Map<string, number>();
  private readonly skeletons = new Map<number, unknown>();

  constructor(private readonly db: Pick<Database, 'query'>) {}

  /** The shape id of each skeleton (JSON text), in order, storing those new to the dictionary. */
  async idsOf(skeletons: readonly string[]): Promise<number[]> {
    const missing = [...new Set(skeletons.filter((s) => !this.ids.has(s)))];
    if (missing.length) {
      const byDigest = new Map(missing.map((skeleton) => [digestOf(skeleton), skeleton]));
      const { rows } = await this.db.query<{ id: number; digest: string }>(
        'INSERT INTO "usage_shapes" ("digest", "skeleton") SELECT "digest", "skeleton" FROM jsonb_to_recordset($1::jsonb) AS x("digest" text, "skeleton" text) ' +
          'ON CONFLICT ("digest") DO UPDATE SET "digest" = EXCLUDED."digest" RETURNING "id", "digest"',
        [JSON.stringify([...byDigest].map(([digest, skeleton]) => ({ digest, skeleton })))],
      );
      for (const row of rows) this.remember(Number(row.id), byDigest.get(row.digest)!);
    }
    return skeletons.map((s) => this.ids.get(s)!);
  }

  /** The skeleton (parsed) of each shape id, reading those not in memory in one statement. */
  async skeletonsOf(ids: Iterable<number>): Promise<Map<number, unknown>> {
    const wanted = [...new Set(ids)];
    const missing = wanted.filter((id) => !this.skeletons.has(id));
    if (missing.length) {
      const { rows } = await this.db.query<{ id: number; skeleton: string }>(
        'SELECT "id", "skeleton" FROM "usage_shapes" WHERE "id" IN (SELECT jsonb_array_elements_text($1::jsonb)::int)',
        [JSON.stringify(missing)],
      );
      for (const row of rows) this.remember(Number(row.id), row.skeleton);
    }
    return new Map(wanted.map((id) => [id, this.skeletons.get(id)]));
  }

  /** The JSON parts of stored records, from their shapes and figures. */
  async partsOf(rows: ReadonlyArray<{ shapeId: number; figures: unknown }>): Promise<UsageRecordParts[]> {
    const skeletons = await this.skeletonsOf(rows.map((r) => r.shapeId));
    return rows.map((r) => {
      const skeleton = skeletons.get(r.shapeId);
      if (skeleton === undefined || !Array.isArray(r.figures)) throw new Error(`usage record shape ${r.shapeId} is missing from usage_shapes`);
      return joinUsageRecordParts(skeleton, r.figures);
    });
  }

  private remember(id: number, skeleton: string): void {
    this.ids.set(skeleton, id);
    this.skeletons.set(id, JSON.parse(skeleton));
  }
}

function digestOf(skeleton: string): string {
  return createHash('sha256').update(skeleton).digest('hex');
}
