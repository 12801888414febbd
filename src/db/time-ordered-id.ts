import { randomFillSync } from 'node:crypto';

/** Random bytes for this many ids are read at once: one read of the system's source per 256 ids, as the uuid package does. */
const IDS_PER_READ = 256;
const pool = Buffer.allocUnsafe(16 * IDS_PER_READ);
let taken = pool.length;

/**
 * Ids that carry the time they were made, as UUIDv7 does (RFC 9562): 32 hex
 * digits, the first 12 the milliseconds since the epoch, then the version
 * digit `7` and random bits. A row keyed by such an id and range-partitioned
 * by its time can be found by id in its own partition, without asking every
 * partition of the table. Ids made before (random UUIDv4 hex, version digit
 * `4`) carry no time.
 */
export function timeOrderedHex(at: Date): string {
  if (taken === pool.length) {
    randomFillSync(pool);
    taken = 0;
  }
  const bytes = pool.subarray(taken, (taken += 16));
  // 48 bits of milliseconds, big-endian: exact in a double, split at 2^32 for the bit operators.
  const ms = Math.max(0, at.getTime());
  const high = Math.floor(ms / 0x1_0000_0000);
  const low = ms >>> 0;
  bytes[0] = (high >>> 8) & 0xff;
  bytes[1] = high & 0xff;
  bytes[2] = low >>> 24;
  bytes[3] = (low >>> 16) & 0xff;
  bytes[4] = (low >>> 8) & 0xff;
  bytes[5] = low & 0xff;
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  return bytes.toString('hex');
}

/** Rows whose creation time lies this far from the time in their id are still found by it. */
const TIME_SLACK_MS = 60 * 60 * 1000;

const TIME_ORDERED = /^[A-Za-z]+_([0-9a-f]{12})7[0-9a-f]{3}[89ab][0-9a-f]{15}$/;

/** The time an id was made at (`prefix_` and the hex of `timeOrderedHex`), or null for an id that carries none. */
export function timeOfId(id: string): Date | null {
  const hex = TIME_ORDERED.exec(id)?.[1];
  return hex ? new Date(parseInt(hex, 16)) : null;
}

/** A time window around every id's time, for a query by id to reach only the partitions that can hold them; null when some id carries no time. */
export function timeWindowOfIds(ids: readonly string[]): { gte: Date; lt: Date } | null {
  let first = Infinity;
  let last = -Infinity;
  for (const id of ids) {
    const at = timeOfId(id)?.getTime();
    if (at === undefined) return null;
    first = Math.min(first, at);
    last = Math.max(last, at);
  }
  return ids.length ? { gte: new Date(first - TIME_SLACK_MS), lt: new Date(last + TIME_SLACK_MS) } : null;
}
