import { protocolDirectiveGate } from '../directive-gate';
import { sendOpenAIError, simulatedFailure } from './errors';

/** The shared latency, hang and failure directives, answered in OpenAI's error shape. */
export const passOpenAIDirectiveGate = protocolDirectiveGate((res, failure, model) => sendOpenAIError(res, simulatedFailure(failure, model)));
