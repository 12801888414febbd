import type { ServerResponse } from 'node:http';
import type { SimulatedFailure } from '../directive-gate';
import { missingRecordingMessage } from '../fixtures';
import { sendGeminiJson } from './respond';

/**
 * Google's error envelope, `{"error":{code,message,status,details}}`, with
 * the messages and details the Gemini API gives for the same situations.
 * `code` is the HTTP status, `status` the RPC code name.
 * @see https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
 * @see https://cloud.google.com/apis/design/errors
 */
export interface GeminiError {
  code: number;
  message: string;
  status: string;
  details?: object[];
}

export function sendGeminiError(res: ServerResponse, error: GeminiError): void {
  sendGeminiJson(res, error.code, geminiErrorEnvelope(error));
}

/** Also the payload of an in-stream error event. */
export function geminiErrorEnvelope(error: GeminiError): { error: GeminiError } {
  return { error };
}

const STATUS_NAMES: { [httpStatus: number]: string } = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'NOT_IMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

const TYPE_PREFIX = 'type.googleapis.com/google.rpc.';
const SERVICE = 'generativelanguage.googleapis.com';
const RATE_LIMITS_URL = 'https://ai.google.dev/gemini-api/docs/rate-limits';

export function invalidArgument(message: string, details?: object[]): GeminiError {
  return { code: 400, message, status: 'INVALID_ARGUMENT', ...(details ? { details } : {}) };
}

/** A request without any key: Google's front end refuses it before the Gemini API sees it. */
export function unregisteredCaller(): GeminiError {
  return {
    code: 403,
    message:
      "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
    status: 'PERMISSION_DENIED',
  };
}

export function apiKeyInvalid(): GeminiError {
  const message = 'API key not valid. Please pass a valid API key.';
  return invalidArgument(message, [
    { '@type': `${TYPE_PREFIX}ErrorInfo`, reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: SERVICE } },
    { '@type': `${TYPE_PREFIX}LocalizedMessage`, locale: 'en-US', message },
  ]);
}

export function modelNotFound(model: string, method: string): GeminiError {
  return {
    code: 404,
    message: `models/${model} is not found for API version v1beta, or is not supported for ${method}. Call ListModels to see the list of available models and their supported methods.`,
    status: 'NOT_FOUND',
  };
}

/** Proto JSON parsing rejects a field the message type does not have; `at` is the snake_case path of the enclosing message. */
export function unknownField(name: string, at?: string): GeminiError {
  const description = `Invalid JSON payload received. Unknown name "${name}"${at ? ` at '${at}'` : ''}: Cannot find field.`;
  return invalidArgument(description, [badRequest(description, at)]);
}

export function invalidJsonPayload(): GeminiError {
  const description = 'Invalid JSON payload received. Unexpected token.';
  return invalidArgument(description, [badRequest(description)]);
}

export function payloadTooLarge(maxBytes: number): GeminiError {
  return invalidArgument(`Request payload size exceeds the limit: ${maxBytes} bytes.`);
}

/** The real endpoint without `alt=sse` streams a JSON array; the simulator serves only the SSE form, which is what gateways use. */
export function streamNeedsSse(): GeminiError {
  return invalidArgument('The simulator serves streamGenerateContent only with alt=sse.');
}

/** A malformed `[sim ...]` directive: the test, not the gateway, is wrong, and should hear so. */
export function badDirective(message: string): GeminiError {
  return invalidArgument(message);
}

export function missingRecording(file: string, folder: string | undefined): GeminiError {
  return invalidArgument(missingRecordingMessage(file, folder));
}

/**
 * What a `[sim status=...]` directive turns into, dressed as the error the
 * Gemini API gives with that status; `code=` replaces the RPC status name.
 * A rate limit says when to retry in a `RetryInfo` detail, as Google does
 * (not in a Retry-After header).
 */
export function simulatedFailure(failure: SimulatedFailure, model: string): GeminiError {
  const error = typicalError(failure, model);
  return failure.code === undefined ? error : { ...error, status: failure.code };
}

function typicalError({ status, retryAfterSeconds }: SimulatedFailure, model: string): GeminiError {
  switch (status) {
    case 400:
      return invalidArgument('Request contains an invalid argument.');
    case 403:
      return { code: 403, message: 'The caller does not have permission', status: 'PERMISSION_DENIED' };
    case 404:
      return modelNotFound(model, 'generateContent');
    case 429:
      return rateLimited(model, retryAfterSeconds);
    case 500:
      return {
        code: 500,
        message: 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
        status: 'INTERNAL',
      };
    case 503:
      return { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' };
    case 504:
      return { code: 504, message: 'Deadline expired before operation could complete.', status: 'DEADLINE_EXCEEDED' };
    default:
      return { code: status, message: `Simulated error with status ${status}.`, status: STATUS_NAMES[status] ?? 'UNKNOWN' };
  }
}

function rateLimited(model: string, retryAfterSeconds: number | undefined): GeminiError {
  const retry = retryAfterSeconds === undefined ? '' : `\nPlease retry in ${retryAfterSeconds}s.`;
  const details: object[] = [
    {
      '@type': `${TYPE_PREFIX}QuotaFailure`,
      violations: [
        {
          quotaMetric: `${SERVICE}/generate_content_free_tier_requests`,
          quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier',
          quotaDimensions: { location: 'global', model },
          quotaValue: '10',
        },
      ],
    },
    { '@type': `${TYPE_PREFIX}Help`, links: [{ description: 'Learn more about Gemini API quotas', url: RATE_LIMITS_URL }] },
  ];
  if (retryAfterSeconds !== undefined) details.push({ '@type': `${TYPE_PREFIX}RetryInfo`, retryDelay: `${retryAfterSeconds}s` });
  return {
    code: 429,
    message:
      `You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: ${RATE_LIMITS_URL}.` +
      `\n* Quota exceeded for metric: ${SERVICE}/generate_content_free_tier_requests, limit: 10, model: ${model}${retry}`,
    status: 'RESOURCE_EXHAUSTED',
    details,
  };
}

function badRequest(description: string, field?: string): object {
  return { '@type': `${TYPE_PREFIX}BadRequest`, fieldViolations: [{ ...(field ? { field } : {}), description }] };
}
