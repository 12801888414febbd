import type { PrismaClient } from '../generated/prisma/client';
import type { PriceTable } from './price-table';

/**
 * The version number of a price table: the same prices always get the same
 * number, a changed table gets the next one. Stored so that old usage records
 * keep pointing at the prices they were billed with.
 */
export async function registerPriceTable(prisma: PrismaClient, table: PriceTable): Promise<number> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const existing = await prisma.priceTable.findUnique({ where: { digest: table.digest } });
    if (existing) return existing.version;
    const latest = await prisma.priceTable.aggregate({ _max: { version: true } });
    const version = (latest._max.version ?? 0) + 1;
    try {
      await prisma.priceTable.create({ data: { version, digest: table.digest, prices: table.canonical } });
      return version;
    } catch {
      // Another instance registered a table at the same moment; look again.
    }
  }
  throw new Error('could not register the price table after 5 attempts');
}
