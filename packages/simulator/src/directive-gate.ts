import type { SimulatorContext } from './context';
import type { Directives } from './directives';
import type { Exchange } from './routing';
import { pause, untilAborted } from './pause';

/** An error the directives asked for, for the protocol to dress in its own error shape. */
export interface SimulatedFailure {
  status: number;
  code?: string | undefined;
  retryAfterSeconds?: number | undefined;
  /** Not an answer: the connection is dropped. */
  reset?: boolean | undefined;
}

export type GateVerdict = { proceed: true } | { proceed: false; failure?: SimulatedFailure };

const DEFAULT_FAILURE_STATUS = 500;
const FIRST_ERROR_STATUS = 400;

/**
 * The part of every simulated answer that does not depend on the protocol:
 * wait the latency, hang if asked, and decide whether this attempt fails.
 * `promptKey` identifies "the same prompt" for `fail_times`: the text the
 * directives were read from, directives included, so that two tests with
 * different knobs never share a count, and the same in every protocol, so
 * that a fallback to another model, even behind another provider's API,
 * sees the prompt again. `proceed: false` without a failure means the client
 * went away.
 */
export async function passDirectiveGate(
  context: SimulatorContext,
  directives: Directives,
  promptKey: string,
  signal: AbortSignal,
): Promise<GateVerdict> {
  if (!(await pause(directives.latencyMs ?? context.options.latencyMs, signal))) return { proceed: false };
  if (directives.hang) {
    await untilAborted(signal);
    return { proceed: false };
  }
  const failure = failureFor(context, directives, promptKey);
  return failure ? { proceed: false, failure } : { proceed: true };
}

function failureFor(context: SimulatorContext, directives: Directives, promptKey: string): SimulatedFailure | undefined {
  if (directives.status === undefined && directives.failTimes === undefined && !directives.reset) return undefined;
  if (directives.status !== undefined && directives.status < FIRST_ERROR_STATUS) return undefined;
  if (directives.failTimes !== undefined && context.failures.countSighting(promptKey) > directives.failTimes) return undefined;
  return { status: directives.status ?? DEFAULT_FAILURE_STATUS, code: directives.code, retryAfterSeconds: directives.retryAfter, reset: directives.reset };
}

/**
 * The gate for a protocol route: true when the request should go on to its
 * answer; false when the gate already answered (with `sendFailure`, in the
 * protocol's error shape, or by dropping the connection) or the client went away.
 */
export async function passDirectiveGateOrAnswer(
  context: SimulatorContext,
  signal: AbortSignal,
  directives: Directives,
  promptKey: string,
  sendFailure: (failure: SimulatedFailure) => void,
  cutConnection: () => void,
): Promise<boolean> {
  const verdict = await passDirectiveGate(context, directives, promptKey, signal);
  if (verdict.proceed) return true;
  if (verdict.failure?.reset) cutConnection();
  else if (verdict.failure) sendFailure(verdict.failure);
  return false;
}

/**
 * A protocol's gate: the shared knobs, with a failure answered in that
 * protocol's error shape (`answer` gets the response, the failure and the
 * model the request named).
 */
export function protocolDirectiveGate(answer: (res: Exchange['res'], failure: SimulatedFailure, model: string) => void) {
  return (context: SimulatorContext, exchange: Exchange, directives: Directives, promptKey: string, model: string): Promise<boolean> =>
    passDirectiveGateOrAnswer(context, exchange.signal, directives, promptKey, (failure) => answer(exchange.res, failure, model), exchange.cutConnection);
}
