import type { SimulatorContext } from '../context';
import { passDirectiveGateOrAnswer } from '../directive-gate';
import type { Directives } from '../directives';
import type { Exchange } from '../routing';
import { sendOpenAIError, simulatedFailure } from './errors';

/**
 * The shared latency, hang and failure directives, answered in OpenAI's
 * error shape. True when the request should go on to its answer; false when
 * the gate already answered or the client went away.
 */
export async function passOpenAIDirectiveGate(
  context: SimulatorContext,
  exchange: Exchange,
  directives: Directives,
  promptKey: string,
  model: string,
): Promise<boolean> {
  return passDirectiveGateOrAnswer(context, exchange.signal, directives, promptKey, (failure) => sendOpenAIError(exchange.res, simulatedFailure(failure, model)));
}
