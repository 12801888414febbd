import type { ServerResponse } from 'node:http';
import type { SimulatedFailure } from '../directive-gate';
import { missingRecordingMessage } from '../fixtures';
import { sendOpenAIJson } from './respond';

/**
 * OpenAI's error envelope and the errors the simulator gives, with the
 * messages, types and codes api.openai.com uses for the same situations.
 * @see https://platform.openai.com/docs/guides/error-codes
 */
export interface OpenAIErrorObject {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

export interface OpenAIError {
  status: number;
  error: OpenAIErrorObject;
  retryAfterSeconds?: number | undefined;
}

export function sendOpenAIError(res: ServerResponse, { status, error, retryAfterSeconds }: OpenAIError): void {
  const headers = retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) };
  sendOpenAIJson(res, status, { error }, headers);
}

/** The payload of an in-stream error event; openai-node throws on any `data:` with a top-level `error`. */
export function openaiErrorEnvelope(error: OpenAIError): { error: OpenAIErrorObject } {
  return { error: error.error };
}

/** An `invalid_request_error` with the given status, message, param and code, for errors no helper below names. */
export function invalidRequest(status: number, message: string, param: string | null = null, code: string | null = null): OpenAIError {
  return { status, error: { message, type: 'invalid_request_error', param, code } };
}

export function missingApiKey(): OpenAIError {
  return invalidRequest(
    401,
    "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
    null,
    'invalid_api_key',
  );
}

export function invalidUrl(method: string, path: string): OpenAIError {
  return invalidRequest(404, `Invalid URL (${method} ${path})`);
}

export function invalidJsonBody(): OpenAIError {
  return invalidRequest(
    400,
    'We could not parse the JSON body of your request. (HINT: This likely means you aren\'t using your HTTP library correctly. ' +
      'The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)',
  );
}

export function bodyTooLarge(maxBytes: number): OpenAIError {
  return invalidRequest(413, `Request body too large: the limit is ${maxBytes} bytes.`);
}

export function missingModel(): OpenAIError {
  return invalidRequest(400, 'you must provide a model parameter');
}

export function missingParameter(param: string): OpenAIError {
  return invalidRequest(400, `Missing required parameter: '${param}'.`, param, 'missing_required_parameter');
}

export function invalidParameter(param: string, message: string): OpenAIError {
  return invalidRequest(400, message, param, 'invalid_value');
}

export function unsupportedParameter(param: string, replacement: string): OpenAIError {
  return invalidRequest(
    400,
    `Unsupported parameter: '${param}' is not supported with this model. Use '${replacement}' instead.`,
    param,
    'unsupported_parameter',
  );
}

export function unsupportedValue(param: string, message: string): OpenAIError {
  return invalidRequest(400, `Unsupported value: '${param}' ${message}`, param, 'unsupported_value');
}

export function modelNotFound(model: string): OpenAIError {
  return invalidRequest(404, `The model \`${model}\` does not exist or you do not have access to it.`, null, 'model_not_found');
}

/** A malformed `[sim ...]` directive: the test, not the gateway, is wrong, and should hear so. */
export function badDirective(message: string): OpenAIError {
  return invalidRequest(400, message);
}

/** What a `[sim status=...]` directive turns into, dressed as the error OpenAI gives with that status. */
export function simulatedFailure(failure: SimulatedFailure, model: string): OpenAIError {
  const { status, retryAfterSeconds } = failure;
  const error = typicalError(status, model, retryAfterSeconds);
  if (failure.code !== undefined) error.code = failure.code;
  if (failure.code === 'insufficient_quota') {
    error.type = 'insufficient_quota';
    error.message = 'You exceeded your current quota, please check your plan and billing details.';
  }
  return { status, error, retryAfterSeconds };
}

function typicalError(status: number, model: string, retryAfterSeconds: number | undefined): OpenAIErrorObject {
  switch (status) {
    case 401:
      return missingApiKey().error;
    case 404:
      return modelNotFound(model).error;
    case 429:
      return {
        message:
          `Rate limit reached for ${model} in organization org-simulator on requests per min (RPM): ` +
          `Limit 60, Used 60, Requested 1. Please try again in ${retryAfterSeconds ?? 1}s.`,
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
      };
    case 503:
      return { message: 'The engine is currently overloaded, please try again later.', type: 'server_error', param: null, code: null };
    default:
      return status >= 500
        ? { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: null }
        : { message: `Simulated error with status ${status}.`, type: 'invalid_request_error', param: null, code: null };
  }
}

/** A replay asked for a recording that the fixtures folder does not have. */
export function missingRecording(file: string, folder: string | undefined): OpenAIError {
  return invalidRequest(400, missingRecordingMessage(file, folder));
}
