import { type OpenAIError, type OpenAIErrorObject, invalidRequest } from './errors';

/**
 * The errors only the Responses API gives, in OpenAI's envelope, with the
 * messages, params and codes api.openai.com uses (the reasoning-model one is
 * recorded in test/fixtures/recorded/openai-responses/reasoning-model-temperature-error.json).
 * @see https://platform.openai.com/docs/guides/error-codes
 */

export function invalidType(param: string, expected: string, value: unknown): OpenAIError {
  return invalidRequest(400, `Invalid type for '${param}': expected ${expected}, but got ${describeType(value)} instead.`, param, 'invalid_type');
}

export function integerBelowMinimum(param: string, minimum: number, value: number): OpenAIError {
  const message = `Invalid '${param}': integer below minimum value. Expected a value >= ${minimum}, but got ${value} instead.`;
  return invalidRequest(400, message, param, 'integer_below_min_value');
}

/** What a reasoning model answers to a sampling parameter, whatever its value. */
export function unsupportedParameterOnModel(param: string): OpenAIError {
  return invalidRequest(400, `Unsupported parameter: '${param}' is not supported with this model.`, param);
}

/** The simulator keeps no responses, so every `previous_response_id` is one it does not know. */
export function previousResponseNotFound(id: string): OpenAIError {
  return invalidRequest(400, `Previous response with id '${id}' not found.`, 'previous_response_id', 'previous_response_not_found');
}

/** Nor does it keep items: an `item_reference` points at nothing. */
export function itemNotFound(id: string, param: string): OpenAIError {
  return invalidRequest(404, `Item with id '${id}' not found.`, param);
}

/**
 * Nor files: the simulator has no Files API, so a `file_id` can only be one
 * the caller should not have sent. A 400 naming the field, so that a gateway
 * passes the mistake on as the client's request problem it is.
 */
export function fileNotFound(fileId: string, param: string): OpenAIError {
  return invalidRequest(400, `The file '${fileId}' was not found.`, param);
}

export function invalidEncryptedContent(itemId: string, param: string): OpenAIError {
  return invalidRequest(400, `The encrypted content for item ${itemId} could not be verified.`, param, 'invalid_encrypted_content');
}

export function toolOutputWithoutCall(callId: string, param: string): OpenAIError {
  return invalidRequest(400, `No tool call found for function call output with call_id ${callId}.`, param);
}

export function toolCallWithoutOutput(callId: string): OpenAIError {
  return invalidRequest(400, `No tool output found for function call ${callId}.`, 'input');
}

export function toolChoiceNotInTools(name: string): OpenAIError {
  return invalidRequest(400, `Tool choice 'function' not found in 'tools' parameter: no tool named '${name}'.`, 'tool_choice');
}

/**
 * The `error` event a Responses stream carries when the server fails
 * mid-answer: the error's fields at the top level, not in an envelope.
 */
export function responsesErrorEvent(error: OpenAIErrorObject): { type: 'error'; code: string | null; message: string; param: string | null } {
  return { type: 'error', code: error.code ?? error.type, message: error.message, param: error.param };
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' && Number.isInteger(value)) return 'an integer';
  return `a ${typeof value}`;
}
