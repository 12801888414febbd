import type { Logger } from '../observability/logger';
import type { Principal } from '../keys/principal';
import { HoldRate, leaseWanted, type LeaseSizing } from './lease-sizing';
import type { SpendLeaseStore } from './spend-lease-store';
import type { LeaseShare, SpendHold } from './spend-hold';

export interface SpendLeaseSettings {
  sizing: LeaseSizing;
  /** A lease's expiry, renewed by its holder while open: past it, another instance or the sweep ends it. */
  ttlMs: number;
  /** A lease no call used for this long is given back. */
  idleMs: number;
  /** A lease this old takes no more calls (the next lease reads the budgets anew) and is given back once its calls are written. */
  maxAgeMs: number;
  /** How long a draining lease waits for its calls' records before it is ended anyway (later records are charged late). */
  drainLimitMs: number;
  /** After the database gave no lease (near a limit, or no wallet), holds are placed per call for this long before asking again. */
  retryMs: number;
}

/** One lease as this instance spends it. */
class OpenLease {
  /** Worst cases of the calls held in it and running. */
  reserved = 0n;
  /** What its finished calls were charged. */
  charged = 0n;
  /** Calls held in it whose usage record is not yet written (committed or spooled). */
  inFlight = 0;
  draining = false;
  drainingSince = 0;
  ending = false;
  /** After a failed return: not tried again before this. */
  retryEndAt = 0;
  lastUsedAt: number;
  /** When to move its expiry again (half its time to live from the last renewal). */
  renewAt: number;

  constructor(
    readonly id: bigint,
    readonly granted: bigint,
    readonly takenAt: number,
    ttlMs: number,
  ) {
    this.lastUsedAt = takenAt;
    this.renewAt = takenAt + ttlMs / 2;
  }

  get available(): bigint {
    return this.granted - this.reserved - this.charged;
  }
}

/** One caller's leases on this instance: the one that takes calls, those being given back, and its recent demand. */
class CallerLeases {
  active: OpenLease | null = null;
  readonly draining = new Set<OpenLease>();
  taking: Promise<void> | null = null;
  noLeaseUntil = 0;
  lastAskedAt = 0;
  readonly rate = new HoldRate();
}

/** What this instance's leases did, for the bench and the logs. */
export interface LeaseCounts {
  taken: number;
  returned: number;
  open: number;
}

const TICK_MS = 100;
const FORGET_CALLER_MS = 60_000;

/**
 * This instance's leases of accounts' wallets and budgets: a hot caller's
 * holds are taken from a lease in memory, with no database round trip, and
 * end there when the call's usage record is handed to the writer, whose
 * statement books the charge against the lease. A lease is sized from the
 * caller's recent holds (lease-sizing.ts) and capped by the room left in the
 * database; a quiet caller, or one near a limit, gets none and its calls
 * place exact holds as before. Leases are given back when idle, drained,
 * too old or at shutdown, and renewed while open; one whose holder died
 * expires (gateway_take_lease and the sweep end it).
 */
export class SpendLeases {
  private readonly callers = new Map<string, CallerLeases>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly counts = { taken: 0, returned: 0 };
  /** Leases being ended now, awaited at shutdown. */
  private readonly endings = new Set<Promise<void>>();

  constructor(
    private readonly store: SpendLeaseStore,
    private readonly holder: string,
    private readonly settings: SpendLeaseSettings,
    private readonly logger: Logger,
  ) {
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  /**
   * A hold of `amount` for this caller's call inside a lease, or null: no
   * lease fits it (the caller is quiet, near a limit, or the database did
   * not answer), and the call places its own hold. Never throws.
   */
  async hold(principal: Principal, amount: bigint): Promise<SpendHold | null> {
    if (this.stopped) return null;
    const caller = this.callerOf(principal);
    const now = Date.now();
    caller.rate.note(amount, now);
    for (let attempt = 0; attempt < 2; attempt++) {
      const lease = caller.active;
      if (lease && Date.now() - lease.takenAt < this.settings.maxAgeMs && lease.available >= amount) return this.reserve(lease, amount);
      if (lease) this.drain(caller, lease);
      if (Date.now() < caller.noLeaseUntil) return null;
      const want = leaseWanted(caller.rate.perSecond(Date.now()), amount, this.settings.sizing);
      if (want === null) return null;
      await this.take(caller, principal, want, amount);
      if (this.stopped) return null;
    }
    return null;
  }

  counted(): LeaseCounts {
    let open = 0;
    for (const caller of this.callers.values()) open += (caller.active ? 1 : 0) + caller.draining.size;
    return { ...this.counts, open };
  }

  /**
   * At shutdown, after the usage records were flushed: no more calls are
   * held in leases, and every lease is given back (its calls' records are
   * written by now; one still waiting is ended anyway after `timeoutMs`).
   */
  async returnAll(timeoutMs = 5_000): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    const deadline = Date.now() + timeoutMs;
    for (const caller of this.callers.values()) if (caller.active) this.drain(caller, caller.active);
    while (Date.now() < deadline && this.anyDraining()) await new Promise((r) => setTimeout(r, 20));
    const left: OpenLease[] = [];
    for (const caller of this.callers.values()) for (const lease of caller.draining) if (!lease.ending) left.push(lease);
    if (left.length) await this.end(left, 'returned at shutdown');
    await Promise.allSettled([...this.endings]);
  }

  private anyDraining(): boolean {
    for (const caller of this.callers.values()) if (caller.draining.size) return true;
    return false;
  }

  private callerOf(p: Principal): CallerLeases {
    const key = `${p.accountId}\u0000${p.keyId}\u0000${p.parentKeyId ?? ''}\u0000${p.projectId ?? ''}\u0000${p.memberId ?? ''}`;
    let caller = this.callers.get(key);
    if (!caller) this.callers.set(key, (caller = new CallerLeases()));
    caller.lastAskedAt = Date.now();
    return caller;
  }

  /** One database round trip for all the caller's calls waiting for a lease. */
  private async take(caller: CallerLeases, principal: Principal, want: bigint, unit: bigint): Promise<void> {
    if (!caller.taking) {
      caller.taking = this.store
        .take({ principal, wantMicrousd: want, unitMicrousd: unit, minUnits: this.settings.sizing.minUnits, share: this.settings.sizing.share, holder: this.holder, ttlMs: this.settings.ttlMs })
        .then((answer) => {
          if (answer.kind !== 'granted') {
            caller.noLeaseUntil = Date.now() + this.settings.retryMs;
            return;
          }
          this.counts.taken++;
          if (answer.softExceeded.length) this.logger.warn('soft budget passed', { account_id: principal.accountId, budget_ids: answer.softExceeded, lease_id: answer.id.toString() });
          const lease = new OpenLease(answer.id, answer.grantedMicrousd, Date.now(), this.settings.ttlMs);
          if (caller.active) this.drain(caller, caller.active);
          caller.active = lease;
          if (this.stopped) this.drain(caller, lease);
        })
        .catch((err: unknown) => {
          caller.noLeaseUntil = Date.now() + this.settings.retryMs;
          this.logger.warn('a spend lease could not be taken; calls hold one by one', { account_id: principal.accountId, err });
        })
        .finally(() => {
          caller.taking = null;
        });
    }
    await caller.taking;
  }

  private reserve(lease: OpenLease, amount: bigint): SpendHold {
    lease.reserved += amount;
    lease.inFlight += 1;
    lease.lastUsedAt = Date.now();
    let ended = false;
    const share: LeaseShare = {
      ended: (chargedMicrousd, written) => {
        if (ended) return;
        ended = true;
        lease.reserved -= amount;
        lease.charged += chargedMicrousd;
        void written.catch(() => undefined).finally(() => {
          lease.inFlight -= 1;
          if (lease.draining && lease.inFlight === 0) this.endDrained(lease);
        });
      },
    };
    return { id: lease.id, amountMicrousd: amount, lease: share };
  }

  /** The lease takes no more calls; it is given back once its calls' records are written. */
  private drain(caller: CallerLeases, lease: OpenLease): void {
    if (caller.active === lease) caller.active = null;
    if (lease.draining) return;
    lease.draining = true;
    lease.drainingSince = Date.now();
    caller.draining.add(lease);
    if (lease.inFlight === 0) this.endDrained(lease);
  }

  private endDrained(lease: OpenLease): void {
    if (lease.ending) return;
    void this.end([lease], 'returned');
  }

  private end(leases: OpenLease[], note: string): Promise<void> {
    for (const lease of leases) lease.ending = true;
    const ending = this.store
      .end(leases.map((l) => l.id), note)
      .then(() => {
        this.counts.returned += leases.length;
        for (const lease of leases) for (const caller of this.callers.values()) caller.draining.delete(lease);
      })
      .catch((err: unknown) => {
        // Tried again on the next tick; if this instance dies first, the lease expires.
        for (const lease of leases) {
          lease.ending = false;
          lease.retryEndAt = Date.now() + 1_000;
        }
        this.logger.warn('a spend lease could not be given back; retrying', { lease_ids: leases.map((l) => l.id.toString()), err });
      });
    this.endings.add(ending);
    void ending.finally(() => this.endings.delete(ending));
    return ending;
  }

  /** Gives back idle and old leases, retries failed returns, ends drains that waited too long, and renews what is open. */
  private tick(): void {
    const now = Date.now();
    const renew: OpenLease[] = [];
    for (const [key, caller] of this.callers) {
      const active = caller.active;
      if (active && (now - active.lastUsedAt >= this.settings.idleMs || now - active.takenAt >= this.settings.maxAgeMs)) this.drain(caller, active);
      for (const lease of caller.draining) {
        if (lease.ending || now < lease.retryEndAt) continue;
        if (lease.inFlight === 0 || now - lease.drainingSince >= this.settings.drainLimitMs) void this.end([lease], lease.inFlight ? 'returned with calls unwritten' : 'returned');
        else if (now >= lease.renewAt) renew.push(lease);
      }
      if (caller.active && now >= caller.active.renewAt) renew.push(caller.active);
      if (!caller.active && !caller.draining.size && !caller.taking && now - caller.lastAskedAt > FORGET_CALLER_MS) this.callers.delete(key);
    }
    if (renew.length) void this.renew(renew, now);
  }

  private async renew(leases: OpenLease[], now: number): Promise<void> {
    for (const lease of leases) lease.renewAt = now + this.settings.ttlMs / 2;
    try {
      const open = new Set((await this.store.renew(leases.map((l) => l.id), this.settings.ttlMs)).map(String));
      for (const lease of leases) {
        if (open.has(lease.id.toString())) continue;
        // Ended by another instance (this one stalled past the expiry): its calls' records are charged late.
        this.logger.warn('a spend lease expired while in use', { lease_id: lease.id.toString() });
        for (const caller of this.callers.values()) {
          if (caller.active === lease) caller.active = null;
          caller.draining.delete(lease);
        }
        lease.ending = true;
      }
    } catch (err) {
      for (const lease of leases) lease.renewAt = now + 1_000;
      this.logger.warn('spend leases could not be renewed; retrying', { err });
    }
  }
}
