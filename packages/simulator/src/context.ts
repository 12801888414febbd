import type { FailureCounter } from './failure-counter';
import type { RecordedFixtures } from './fixtures';
import type { ResolvedSimulatorOptions } from './options';
import type { RequestLog } from './request-log';

/** What every protocol's handlers share: the start-up options and the simulator's state. */
export interface SimulatorContext {
  options: ResolvedSimulatorOptions;
  fixtures: RecordedFixtures;
  failures: FailureCounter;
  requestLog: RequestLog;
}
