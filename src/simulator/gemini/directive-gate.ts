import type { SimulatorContext } from '../context';
import { passDirectiveGate } from '../directive-gate';
import type { Directives } from '../directives';
import type { Exchange } from '../routing';
import { sendGeminiError, simulatedFailure } from './errors';

/**
 * The shared latency, hang and failure directives, answered in Google's
 * error shape. True when the request should go on to its answer; false when
 * the gate already answered or the client went away.
 */
export async function passGeminiDirectiveGate(
  context: SimulatorContext,
  exchange: Exchange,
  directives: Directives,
  promptKey: string,
  model: string,
): Promise<boolean> {
  const verdict = await passDirectiveGate(context, directives, promptKey, exchange.signal);
  if (verdict.proceed) return true;
  if (verdict.failure) sendGeminiError(exchange.res, simulatedFailure(verdict.failure, model));
  return false;
}
