import { unwatchFile, watchFile } from 'node:fs';
import path from 'node:path';
import { PriceTable } from '../billing/price-table';
import { registerPriceTable } from '../billing/price-table-version';
import { decisionSwitches } from '../config/decision-switches';
import { ConfigError, readConfigDocument, validateConfig } from '../config/load-config';
import type { Database } from '../db/database';
import type { Logger } from '../observability/logger';
import { ProviderConfigError, resolveProviders } from '../providers/resolved-provider';
import { resolveSearchBackends } from '../providers/search/resolve-search-backends';
import { resolveMcpServers } from '../providers/mcp/resolved-mcp-server';
import { Catalog, type CatalogContents } from './catalog';
import { type CatalogRevision, CatalogStore, documentDigest } from './catalog-store';

export interface CatalogSyncOptions {
  db: Database;
  logger: Logger;
  /** The environment provider API keys are read from (`api_key_env`). */
  env: NodeJS.ProcessEnv;
  /** Where simulated providers are served, when the simulator runs. */
  simulatorUrl: string | undefined;
  /** How often to look for a revision another instance stored (0: never, as with an embedded database no other instance shares). */
  pollMs: number;
}

/** A catalog edit that cannot be served; the message names the field, and the catalog in force stays. */
export class CatalogEditError extends Error {
  override readonly name = 'CatalogEditError';
}

/**
 * Keeps the catalog the newest stored revision, on every instance. The
 * config document the gateway started with (the catalog file or the
 * built-in default) is stored as a revision unless that exact document was
 * stored before; edits come as a changed catalog file (watched) or through
 * the admin API, and each is validated in full (fields, providers, prices)
 * before it is stored, so a bad edit is refused and nothing changes.
 * Instances sharing a PostgreSQL database look for a newer revision every
 * `pollMs` and switch to it; requests in flight keep the routes they
 * resolved, and usage records cite the pricing version they were billed at.
 */
export class CatalogSync {
  private readonly store: CatalogStore;
  private pollTimer: NodeJS.Timeout | undefined;
  private watchedFile: string | undefined;
  private polling = false;

  private constructor(
    private readonly opts: CatalogSyncOptions,
    readonly catalog: Catalog,
  ) {
    this.store = new CatalogStore(opts.db);
  }

  /** The catalog to serve at start-up: the newest revision, once the starting document is stored. */
  static async start(opts: CatalogSyncOptions, startingDocument: unknown, source: string): Promise<CatalogSync> {
    const store = new CatalogStore(opts.db);
    const startingContents = await build(opts, startingDocument, 0, source);
    const sync = new CatalogSync(opts, new Catalog(startingContents));
    if (!(await store.hasDigest(documentDigest(startingDocument)))) {
      // A starting document never stored before (a new catalog file, a new default catalog) is the newest edit.
      await sync.edit(source, () => startingDocument);
    } else {
      await sync.poll();
      if (sync.revision === 0) opts.logger.error('the newest catalog revision cannot be served here; serving the starting config', { source });
    }
    if (opts.pollMs > 0) sync.pollTimer = setInterval(() => void sync.poll(), opts.pollMs).unref();
    return sync;
  }

  get revision(): number {
    return this.catalog.contents.revision;
  }

  /** The document of the revision in force, as stored. */
  async currentDocument(): Promise<CatalogRevision | undefined> {
    return this.store.latest();
  }

  /** Watches the catalog file: an edit that validates becomes the next revision; one that does not is logged and ignored. */
  watch(file: string, intervalMs = 1000): void {
    this.watchedFile = file;
    watchFile(file, { interval: intervalMs, persistent: false }, (now, before) => {
      if (now.mtimeMs === before.mtimeMs && now.size === before.size) return;
      void this.importFile(file);
    });
  }

  async importFile(file: string): Promise<void> {
    const { logger } = this.opts;
    try {
      const revision = await this.edit(`file:${path.basename(file)}`, (latest) => {
        const document = readConfigDocument(file);
        // The file as it was last imported changes nothing (an editor that saves twice, a touch).
        return latest?.digest === documentDigest(document) ? undefined : document;
      });
      if (revision) logger.info('catalog file edit applied', { file, revision: revision.version, pricing_version: this.catalog.contents.pricing.version });
    } catch (err) {
      logger.error('catalog file edit refused; the catalog in force stays', { file, revision: this.revision, error: (err as Error).message });
    }
  }

  /**
   * Stores `change(newest document)` as the next revision and serves it here
   * at once (other instances follow within `pollMs`). The document is
   * validated in full first: one that cannot be served throws
   * CatalogEditError naming the field, and nothing is stored. `change`
   * returns undefined to store nothing.
   */
  async edit(source: string, change: (latest: CatalogRevision | undefined) => unknown): Promise<CatalogRevision | undefined> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const latest = await this.store.latest();
      const document = change(latest);
      if (document === undefined) return undefined;
      const contents = await build(this.opts, document, (latest?.version ?? 0) + 1, source);
      const revision = await this.store.insertAfter(latest?.version ?? 0, source, document);
      if (!revision) continue;
      this.apply(contents);
      return revision;
    }
    throw new Error('could not store the catalog edit after 5 attempts: other edits kept winning');
  }

  /** Switches to a newer stored revision, if there is one. */
  async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      if ((await this.store.latestVersion()) <= this.revision) return;
      const latest = await this.store.latest();
      if (!latest || latest.version <= this.revision) return;
      this.apply(await build(this.opts, latest.document, latest.version, latest.source));
    } catch (err) {
      this.opts.logger.warn('could not switch to the newest catalog revision; the one in force stays', { revision: this.revision, error: (err as Error).message });
    } finally {
      this.polling = false;
    }
  }

  stop(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.watchedFile) unwatchFile(this.watchedFile);
  }

  private apply(contents: CatalogContents): void {
    if (contents.revision < this.revision) return;
    const before = this.catalog.contents;
    this.catalog.replace(contents);
    this.opts.logger.info('catalog revision in force', {
      revision: contents.revision, previous: before.revision, models: this.catalog.allModels().length, pricing_version: contents.pricing.version,
    });
  }
}

/** Validates a document in full and makes it servable: providers resolved, prices registered. */
async function build(opts: CatalogSyncOptions, document: unknown, revision: number, source: string): Promise<CatalogContents> {
  try {
    const config = validateConfig(document, `catalog (${source})`);
    const providers = resolveProviders(config, opts.env, opts.simulatorUrl);
    const searchBackends = resolveSearchBackends(config, opts.env, opts.simulatorUrl);
    const mcpServers = resolveMcpServers(config, opts.env);
    const prices = new PriceTable(config.models, config.search.backends, config.mcp.servers);
    const version = await registerPriceTable(opts.db, prices);
    const decisions = decisionSwitches(config, opts.env);
    return { config, providers, searchBackends, mcpServers, decisions, pricing: { prices, version }, revision, loadedAt: Math.floor(Date.now() / 1000) };
  } catch (err) {
    if (err instanceof ConfigError || err instanceof ProviderConfigError) throw new CatalogEditError(err.message);
    throw err;
  }
}
