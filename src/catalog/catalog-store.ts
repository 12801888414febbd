import { createHash } from 'node:crypto';
import type { Database } from '../db/database';

/** One stored catalog revision. */
export interface CatalogRevision {
  version: number;
  digest: string;
  source: string;
  document: unknown;
}

/**
 * The catalog's revisions in the database, shared by every instance. Rows
 * are only ever added; a new revision takes the next version number, and two
 * instances writing at once agree through the primary key.
 */
export class CatalogStore {
  constructor(private readonly db: Pick<Database, 'query'>) {}

  async latestVersion(): Promise<number> {
    const { rows } = await this.db.query<{ version: number | null }>('SELECT MAX("version") AS "version" FROM "catalog_revisions"', []);
    return Number(rows[0]?.version ?? 0);
  }

  async latest(): Promise<CatalogRevision | undefined> {
    const { rows } = await this.db.query<CatalogRevision>(
      'SELECT "version", "digest", "source", "document" FROM "catalog_revisions" ORDER BY "version" DESC LIMIT 1',
      [],
    );
    return rows[0] ? { ...rows[0], version: Number(rows[0].version) } : undefined;
  }

  /** Whether a document of this digest was ever stored: a catalog file already imported is not imported again. */
  async hasDigest(digest: string): Promise<boolean> {
    const { rows } = await this.db.query('SELECT 1 FROM "catalog_revisions" WHERE "digest" = $1 LIMIT 1', [digest]);
    return rows.length > 0;
  }

  /**
   * Stores `document` as the revision after `after` (0: the first). Returns
   * undefined when another instance stored that revision first: the caller
   * reads the newest again and retries on top of it.
   */
  async insertAfter(after: number, source: string, document: unknown): Promise<CatalogRevision | undefined> {
    const revision = { version: after + 1, digest: documentDigest(document), source, document };
    const inserted = await this.db.query(
      'INSERT INTO "catalog_revisions" ("version", "digest", "source", "document") VALUES ($1, $2, $3, $4::jsonb) ON CONFLICT DO NOTHING',
      [revision.version, revision.digest, source, JSON.stringify(document)],
    );
    return inserted.rowCount === 1 ? revision : undefined;
  }
}

/** SHA-256 of a document's canonical JSON (keys sorted), so the same catalog always has the same digest. */
export function documentDigest(document: unknown): string {
  return createHash('sha256').update(JSON.stringify(document, sortedKeys)).digest('hex');
}

function sortedKeys(_key: string, value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)));
}
