import { CatalogEditError, type CatalogSync } from '../catalog/catalog-sync';
import type { CatalogRevision } from '../catalog/catalog-store';
import { GatewayError } from '../errors/gateway-error';

/** The catalog document as the admin API edits it: what each edit helper reaches into. */
export type CatalogDocument = {
  providers?: Record<string, Record<string, unknown>>;
  models?: Array<Record<string, unknown>>;
  mcp?: { servers?: Array<Record<string, unknown>> };
};

/**
 * One admin edit of the catalog: `change` gets a copy of the newest stored
 * document to change (and may throw its entry's 404); the result is
 * validated in full and stored as the next revision, or refused as a 400
 * `invalid_catalog` naming the field, and nothing changes.
 */
export async function editCatalog(sync: CatalogSync, change: (document: CatalogDocument) => CatalogDocument): Promise<CatalogRevision | undefined> {
  try {
    return await sync.edit('admin', (latest) => change(structuredClone(latest?.document ?? {}) as CatalogDocument));
  } catch (err) {
    if (err instanceof CatalogEditError) throw new GatewayError('invalid_catalog', err.message);
    throw err;
  }
}
