import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Process figures from Linux /proc: CPU time in clock ticks, resident memory. */

let ticksPerSecond: number | undefined;

/** `getconf CLK_TCK` (almost always 100). */
export function clockTicksPerSecond(): number {
  if (ticksPerSecond === undefined) {
    try {
      const value = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
      ticksPerSecond = Number.isInteger(value) && value > 0 ? value : 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** utime + stime of the whole process (all threads), in clock ticks. */
export function readCpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may contain spaces: split after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state); utime is field 14, stime field 15.
  return Number(fields[11]) + Number(fields[12]);
}

/** CPU milliseconds between two tick readings. */
export function ticksToMs(ticks: number): number {
  return (ticks * 1000) / clockTicksPerSecond();
}

export interface MemoryStats {
  /** Current resident set, bytes. */
  rssBytes: number;
  /** Peak resident set since the process started, bytes. */
  hwmBytes: number;
}

export function readMemory(pid: number): MemoryStats {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string): number => {
    const match = new RegExp(`^${name}:\\s+(\\d+)\\s+kB`, 'm').exec(status);
    if (!match) throw new Error(`/proc/${pid}/status has no ${name}`);
    return Number(match[1]) * 1024;
  };
  return { rssBytes: kb('VmRSS'), hwmBytes: kb('VmHWM') };
}

/** A CPU-time meter over one measured window. */
export class CpuMeter {
  private readonly start: number;

  constructor(private readonly pid: number) {
    this.start = readCpuTicks(pid);
  }

  /** CPU milliseconds used since the meter was created. */
  elapsedMs(): number {
    return ticksToMs(readCpuTicks(this.pid) - this.start);
  }
}

/**
 * CPU milliseconds of a changing set of processes (e.g. the PostgreSQL server
 * and its backends) over a window: processes that started during the window
 * count from zero, those that ended during it are lost.
 */
export class GroupCpuMeter {
  private readonly start: Map<number, number>;

  constructor(private readonly pids: () => number[]) {
    this.start = ticksOf(pids());
  }

  elapsedMs(): number {
    let ticks = 0;
    for (const [pid, now] of ticksOf(this.pids())) ticks += now - (this.start.get(pid) ?? 0);
    return ticksToMs(ticks);
  }
}

/** Machine-wide CPU ticks from /proc/stat (all CPUs together). */
export interface SystemTicks {
  /** user + nice + system: time charged to processes (interrupt and softirq time, e.g. loopback networking, is not). */
  busy: number;
  /** Time the hypervisor gave to someone else. */
  steal: number;
  /** Everything, idle included. */
  total: number;
}

export function readSystemTicks(): SystemTicks {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = line.trim().split(/\s+/).slice(1).map(Number);
  return { busy: user + nice + system, steal, total: user + nice + system + idle + iowait + irq + softirq + steal };
}

/** Processes whose command name is exactly `name` (e.g. the PostgreSQL server and its backends). */
export function pidsNamed(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

function ticksOf(pids: number[]): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const pid of pids) {
    try {
      ticks.set(pid, readCpuTicks(pid));
    } catch {
      // gone
    }
  }
  return ticks;
}

export interface NoiseSample {
  /** CPU ticks used by processes outside the system under test. */
  otherTicks: number;
  stealTicks: number;
  /** Ticks the machine had (elapsed time x CPUs). */
  capacityTicks: number;
}

/**
 * How much of the machine something else used during a window: the machine's
 * busy ticks minus those of the processes under test (gateway, simulator, the
 * load generator, PostgreSQL). On a shared box, a high figure means the
 * numbers of that window are not the gateway's alone.
 */
export class NoiseMeter {
  private readonly system = readSystemTicks();
  private readonly ours: Map<number, number>;

  constructor(private readonly pids: () => number[]) {
    this.ours = ticksOf(pids());
  }

  stop(): NoiseSample {
    const system = readSystemTicks();
    let ours = 0;
    for (const [pid, now] of ticksOf(this.pids())) ours += now - (this.ours.get(pid) ?? 0);
    return {
      otherTicks: Math.max(0, system.busy - this.system.busy - ours),
      stealTicks: system.steal - this.system.steal,
      capacityTicks: system.total - this.system.total,
    };
  }
}
