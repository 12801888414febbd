import { protocolDirectiveGate } from '../directive-gate';
import { sendGeminiError, simulatedFailure } from './errors';

/** The shared latency, hang and failure directives, answered in Google's error shape. */
export const passGeminiDirectiveGate = protocolDirectiveGate((res, failure, model) => sendGeminiError(res, simulatedFailure(failure, model)));
