/**
 * A fault drill: it starts the processes it needs (simulator, gateways,
 * its own PostgreSQL or Redis when it breaks them), does its harm under load,
 * and reports each check with what it measured. `short` drills run in CI;
 * the long ones are run by hand (`DRILLS=all npm run drills`) and their last
 * result is kept in docs/reliability.md.
 */
export interface Drill {
  id: string;
  short: boolean;
  /** One line on what the drill does. */
  summary: string;
  run(report: DrillReport): Promise<void>;
}

export interface DrillCheck {
  drill: string;
  what: string;
  measured: string;
  ok: boolean;
}

/** The checks of a run, printed as a table at the end. */
export class DrillReport {
  readonly checks: DrillCheck[] = [];
  private current = '';

  begin(drill: string): void {
    this.current = drill;
  }

  check(what: string, measured: string, ok: boolean): void {
    this.checks.push({ drill: this.current, what, measured, ok });
  }

  /** A figure worth keeping that is not a pass/fail check. */
  note(what: string, measured: string): void {
    this.checks.push({ drill: this.current, what, measured, ok: true });
  }

  get failed(): DrillCheck[] {
    return this.checks.filter((c) => !c.ok);
  }
}
