import type { OpenAIError } from './errors';
import { isReasoningModel, unsupportedEffortError } from './reasoning-models';
import { unsupportedParameterOnModel } from './responses-errors';
import type { ResponsesRequest } from './responses-request';

/**
 * The reasoning rules of the Responses API: a reasoning model (o-series,
 * GPT-5) refuses the sampling parameters outright, whatever their value
 * (the recorded reasoning-model-temperature-error.json), and takes only the
 * efforts it knows; any other model refuses `reasoning.effort`.
 * @see https://platform.openai.com/docs/guides/reasoning
 */
const SAMPLING_PARAMETERS = ['temperature', 'top_p'] as const;

export function responsesReasoningError(request: ResponsesRequest): OpenAIError | undefined {
  const effort = request.reasoning?.effort;
  if (!isReasoningModel(request.model)) return effort === undefined || effort === null ? undefined : unsupportedParameterOnModel('reasoning.effort');
  const sampling = SAMPLING_PARAMETERS.find((param) => request[param] !== undefined && request[param] !== null);
  if (sampling) return unsupportedParameterOnModel(sampling);
  return unsupportedEffortError('reasoning.effort', request.model, effort);
}
