/** How leases are sized (spend-leases.ts). */
export interface LeaseSizing {
  /** A lease covers about this many seconds of the caller's recent holds. */
  leaseSeconds: number;
  /** A caller asking for fewer holds a second than this takes no lease: one hold per call, as without leases. */
  minCallsPerSecond: number;
  /** A lease is at least this many of the asking call's worst case; less than that left to lease, and holds are exact per call. */
  minUnits: number;
  /** A lease takes at most 1/share of the room the wallet and budgets have left, so that other instances can lease too. */
  share: number;
}

export const DEFAULT_LEASE_SIZING: LeaseSizing = { leaseSeconds: 2, minCallsPerSecond: 10, minUnits: 2, share: 4 };

/** What a caller asked for per second. */
export interface Demand {
  calls: number;
  microusd: bigint;
}

/**
 * A caller's holds per second, over a sliding second: the current second
 * so far plus the part of the previous one still inside the window.
 */
export class HoldRate {
  private windowStart = 0;
  private current: Demand = { calls: 0, microusd: 0n };
  private previous: Demand = { calls: 0, microusd: 0n };

  note(amountMicrousd: bigint, now: number): void {
    this.roll(now);
    this.current.calls += 1;
    this.current.microusd += amountMicrousd;
  }

  perSecond(now: number): Demand {
    this.roll(now);
    const kept = Math.max(0, 1 - (now - this.windowStart) / 1000);
    const keptPerMille = BigInt(Math.round(kept * 1000));
    return {
      calls: this.current.calls + this.previous.calls * kept,
      microusd: this.current.microusd + (this.previous.microusd * keptPerMille) / 1000n,
    };
  }

  private roll(now: number): void {
    if (now - this.windowStart < 1000) return;
    this.previous = now - this.windowStart < 2000 ? this.current : { calls: 0, microusd: 0n };
    this.current = { calls: 0, microusd: 0n };
    this.windowStart = now - ((now - this.windowStart) % 1000);
  }
}

/**
 * The lease to ask for, given the caller's demand and the worst case of the
 * call asking: about `leaseSeconds` of its holds, and never less than twice
 * the smallest lease; null when the caller is too quiet to gain from one.
 * The database then caps it by the room left (gateway_take_lease).
 */
export function leaseWanted(demand: Demand, holdMicrousd: bigint, sizing: LeaseSizing): bigint | null {
  if (demand.calls < sizing.minCallsPerSecond || holdMicrousd <= 0n) return null;
  const forSeconds = (demand.microusd * BigInt(Math.round(sizing.leaseSeconds * 1000))) / 1000n;
  const least = holdMicrousd * BigInt(sizing.minUnits * 2);
  return forSeconds > least ? forSeconds : least;
}
