import type { SqlDriverAdapterFactory } from '@prisma/client/runtime/client';

type SqlDriverAdapter = Awaited<ReturnType<SqlDriverAdapterFactory['connect']>>;
/** What adapters and transactions send statements with. */
type SqlQueryable = Pick<SqlDriverAdapter, 'queryRaw' | 'executeRaw'>;

/**
 * How many SQL statements one database handle has sent: every statement
 * Prisma runs (counted where its driver adapter hands it to the driver,
 * so a transaction's BEGIN and COMMIT count too) and every `query` straight
 * through the driver. A plain number bumped once per statement: nothing is
 * timed, formatted or kept, so it costs nothing next to the statement.
 * Tests read it around one operation to see how many statements that
 * operation ran (an N+1 shows as a count that grows with the page).
 */
export class StatementCount {
  private sent = 0;

  /** Statements sent so far. */
  get value(): number {
    return this.sent;
  }

  add(statements = 1): void {
    this.sent += statements;
  }

  /**
   * Prisma's driver adapter, counting here every statement it runs. The
   * adapter and each transaction stay the driver's own objects underneath
   * (their prototype): only the methods that send a statement are wrapped.
   */
  adapter(factory: SqlDriverAdapterFactory): SqlDriverAdapterFactory {
    return withMethods(factory, {
      connect: async () => this.counting(await factory.connect()),
    });
  }

  private counting(adapter: SqlDriverAdapter): SqlDriverAdapter {
    return withMethods(adapter, {
      ...this.queryable(adapter),
      startTransaction: async (isolationLevel) => {
        // BEGIN (and SET TRANSACTION when a level is asked for) is sent by the adapter itself.
        this.add(isolationLevel ? 2 : 1);
        const transaction = await adapter.startTransaction(isolationLevel);
        // Prisma sends COMMIT and ROLLBACK as statements, except where the adapter ends the transaction itself.
        const ends: Partial<typeof transaction> = transaction.options.usePhantomQuery
          ? { commit: () => (this.add(), transaction.commit()), rollback: () => (this.add(), transaction.rollback()) }
          : {};
        return withMethods(transaction, { ...this.queryable(transaction), ...ends });
      },
    });
  }

  private queryable(target: SqlQueryable): SqlQueryable {
    return {
      queryRaw: (query) => {
        this.sent++;
        return target.queryRaw(query);
      },
      executeRaw: (query) => {
        this.sent++;
        return target.executeRaw(query);
      },
    };
  }
}

/** `target` with some methods replaced; everything else (properties, other methods) is read from it. */
function withMethods<T extends object>(target: T, methods: Partial<T>): T {
  return Object.assign(Object.create(target) as T, methods);
}
