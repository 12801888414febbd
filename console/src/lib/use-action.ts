import { useCallback, useState } from 'preact/hooks';
import { toProblem, type GatewayProblem } from './gateway-problem';

export interface Action {
  /** True while the work runs: its button is disabled. */
  pending: boolean;
  /** Why the last run failed, in the gateway's words; cleared by the next run. */
  problem: GatewayProblem | undefined;
  /** Runs `work`; says whether it succeeded (a failure is kept in `problem`, never thrown). */
  run(work: () => Promise<void>): Promise<boolean>;
  clear(): void;
}

/** A write the user started (a form's submit, a dialog's Confirm): its pending state and its refusal. */
export function useAction(): Action {
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<GatewayProblem>();
  const run = useCallback(async (work: () => Promise<void>) => {
    setPending(true);
    setProblem(undefined);
    try {
      await work();
      return true;
    } catch (err) {
      setProblem(toProblem(err));
      return false;
    } finally {
      setPending(false);
    }
  }, []);
  const clear = useCallback(() => setProblem(undefined), []);
  return { pending, problem, run, clear };
}
