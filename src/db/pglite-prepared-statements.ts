import { parse, protocol, type PGlite, type Results } from '@electric-sql/pglite';
import { isStalePreparedStatement } from './stale-prepared-statement';

const { serialize } = protocol;

interface Prepared {
  text: string;
  /** Parameter types as PostgreSQL described them, for PGlite's own value serializers. */
  paramTypes: number[];
}

/**
 * Named statements on the embedded database, parsed and planned once.
 * PGlite's `query()` sends every statement unnamed, as Parse, Describe,
 * Bind, Describe, Execute and Sync, each its own pass through the
 * WebAssembly backend; the usage-record insert with its roll-ups was parsed
 * and planned again on every batch. A named one is prepared once (Parse and
 * Describe) and then run as one pass of Bind, Describe, Execute and Sync.
 * Values are serialized and rows parsed as `query()` does it, so a caller
 * sees the same results either way. Runs under PGlite's transaction and
 * query locks, like `query()`, so it never lands inside a transaction of
 * Prisma's.
 */
export class PglitePreparedStatements {
  private readonly prepared = new Map<string, Prepared>();

  constructor(private readonly pg: PGlite) {}

  query<Row>(name: string, text: string, params: unknown[]): Promise<{ rows: Row[]; rowCount: number }> {
    return this.pg._runExclusiveTransaction(() =>
      this.pg._runExclusiveQuery(async () => {
        try {
          return await this.run<Row>(name, text, params);
        } catch (err) {
          if (!isStalePreparedStatement(err)) throw err;
          // A migration changed what the statement returns: prepared anew, once.
          await this.forget(name);
          return this.run<Row>(name, text, params);
        }
      }),
    );
  }

  private async run<Row>(name: string, text: string, params: unknown[]): Promise<{ rows: Row[]; rowCount: number }> {
    const statement = this.prepared.get(name) ?? (await this.prepare(name, text));
    // As node-postgres does: one name is one statement.
    if (statement.text !== text) throw new Error(`Prepared statements must be unique - '${name}' was used for a different statement`);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = this.pg.serializers[statement.paramTypes[i]!];
      return serializer ? serializer(value) : String(value);
    });
    const messages = await this.pg.execProtocolStream(
      concat([serialize.bind({ statement: name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]),
      { syncToFs: false },
    );
    await this.pg.syncToFs();
    const [result] = parse.parseResults(messages, this.pg.parsers) as Results<Row>[];
    return { rows: result!.rows, rowCount: rowCount(result!) };
  }

  private async prepare(name: string, text: string): Promise<Prepared> {
    const messages = await this.pg.execProtocolStream(
      concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]),
      { syncToFs: false },
    );
    const statement = { text, paramTypes: parse.parseDescribeStatementResults(messages) };
    this.prepared.set(name, statement);
    return statement;
  }

  private async forget(name: string): Promise<void> {
    this.prepared.delete(name);
    await this.pg.execProtocolStream(concat([serialize.close({ type: 'S', name }), serialize.sync()]), { syncToFs: false });
  }
}

function concat(messages: Uint8Array[]): Uint8Array {
  return Buffer.concat(messages);
}

/** Rows a statement touched (INSERT, UPDATE, DELETE) or returned (SELECT), as PostgreSQL's driver counts them. */
export function rowCount(result: Results<unknown>): number {
  // PGlite counts only the rows a statement changed: 0 for a SELECT.
  return result.affectedRows || result.rows.length;
}
