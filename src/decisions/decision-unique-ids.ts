import { GatewayError } from '../errors/gateway-error';
import type { UniqueKeys } from '../http/duplicate-json-keys';

/**
 * The ids a decision request keys objects by, unique as the API says:
 * question ids (`questions`) and a choice question's option ids (its
 * `criteria`). A body that writes one twice is refused with 400
 * `invalid_question` naming the id, never judged with the last of the two.
 */
export const DECISION_UNIQUE_IDS: UniqueKeys = {
  paths: ['questions', 'questions.*.criteria'],
  refusal: ({ path, key }) =>
    path === 'questions'
      ? new GatewayError('invalid_question', `The question id "${key}" appears more than once in "questions"; question ids are unique.`, { param: `questions.${key}` })
      : new GatewayError('invalid_question', `The option id "${key}" appears more than once in "${path}"; option ids are unique.`, { param: `${path}.${key}` }),
};
