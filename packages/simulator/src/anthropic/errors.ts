import type { ServerResponse } from 'node:http';
import type { SimulatedFailure } from '../directive-gate';
import { missingRecordingMessage } from '../fixtures';
import { anthropicHeaders, requestIdFrom, sendAnthropicJson } from './respond';

/**
 * Anthropic's error envelope, `{"type":"error","error":{"type","message"},"request_id"}`,
 * and the errors the simulator gives, with the types, statuses and messages
 * api.anthropic.com uses for the same situations.
 * @see https://docs.anthropic.com/en/api/errors
 */
export interface AnthropicError {
  status: number;
  type: string;
  message: string;
  retryAfterSeconds?: number | undefined;
}

/** Links into the extended-thinking guide that Anthropic's thinking errors point to. */
const THINKING_DOCS = 'https://docs.claude.com/en/docs/build-with-claude/extended-thinking';
const THINKING_CONSIDERATIONS = `Please consult our documentation at ${THINKING_DOCS}#important-considerations-when-using-extended-thinking`;

export function sendAnthropicError(res: ServerResponse, error: AnthropicError): void {
  const headers = anthropicHeaders();
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  sendAnthropicJson(res, error.status, { ...anthropicErrorEvent(error), request_id: requestIdFrom(headers) }, headers);
}

/** The body of an error, also the payload of an in-stream `event: error`. */
export function anthropicErrorEvent(error: AnthropicError): { type: 'error'; error: { type: string; message: string } } {
  return { type: 'error', error: { type: error.type, message: error.message } };
}

export function invalidRequest(message: string): AnthropicError {
  return { status: 400, type: 'invalid_request_error', message };
}

export function missingApiKey(): AnthropicError {
  return { status: 401, type: 'authentication_error', message: 'x-api-key header is required' };
}

export function missingVersion(): AnthropicError {
  return invalidRequest('anthropic-version: header is required');
}

export function unknownVersion(version: string): AnthropicError {
  return invalidRequest(`anthropic-version: "${version}" is not a valid version`);
}

export function notFound(): AnthropicError {
  return { status: 404, type: 'not_found_error', message: 'Not Found' };
}

export function invalidJsonBody(): AnthropicError {
  return invalidRequest('There was an error parsing the body of your request: it is not valid JSON.');
}

export function bodyTooLarge(): AnthropicError {
  return { status: 413, type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' };
}

export function fieldRequired(path: string): AnthropicError {
  return invalidRequest(`${path}: Field required`);
}

export function budgetBelowMinimum(): AnthropicError {
  return invalidRequest('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
}

export function budgetNotBelowMaxTokens(): AnthropicError {
  return invalidRequest(`\`max_tokens\` must be greater than \`thinking.budget_tokens\`. Please consult our documentation at ${THINKING_DOCS}#max-tokens-and-context-window-size`);
}

export function temperatureWithThinking(): AnthropicError {
  return invalidRequest(`\`temperature\` may only be set to 1 when thinking is enabled. ${THINKING_CONSIDERATIONS}`);
}

export function topKWithThinking(): AnthropicError {
  return invalidRequest(`\`top_k\` must be unset when thinking is enabled. ${THINKING_CONSIDERATIONS}`);
}

/** The wording is modelled on the `top_k` error; the real message for `top_p` was not found in a primary source. */
export function topPWithThinking(): AnthropicError {
  return invalidRequest(`\`top_p\` must be greater than or equal to 0.95 or unset when thinking is enabled. ${THINKING_CONSIDERATIONS}`);
}

export function forcedToolWithThinking(): AnthropicError {
  return invalidRequest('Thinking may not be enabled when tool_choice forces tool use.');
}

export function thinkingBlockExpected(messageIndex: number, foundType: string): AnthropicError {
  return invalidRequest(
    `messages.${messageIndex}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${foundType}\`. ` +
      'When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of ' +
      '`tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, ' +
      `disable \`thinking\`. Please consult our documentation at ${THINKING_DOCS}`,
  );
}

export function invalidThinkingSignature(messageIndex: number, blockIndex: number): AnthropicError {
  return invalidRequest(`messages.${messageIndex}.content.${blockIndex}: Invalid \`signature\` in \`thinking\` block`);
}

/** Modelled on the signature error; Anthropic's wording for tampered redacted data was not found in a primary source. */
export function invalidRedactedThinking(messageIndex: number, blockIndex: number): AnthropicError {
  return invalidRequest(`messages.${messageIndex}.content.${blockIndex}: Invalid \`data\` in \`redacted_thinking\` block`);
}

/** A malformed `[sim ...]` directive: the test, not the gateway, is wrong, and should hear so. */
export function badDirective(message: string): AnthropicError {
  return invalidRequest(message);
}

/** A replay asked for a recording that the fixtures folder does not have. */
export function missingRecording(file: string, folder: string | undefined): AnthropicError {
  return invalidRequest(missingRecordingMessage(file, folder));
}

/** What a `[sim status=...]` directive turns into: the error Anthropic gives with that status; `code` overrides the type. */
export function simulatedFailure(failure: SimulatedFailure, model: string): AnthropicError {
  const typical = typicalError(failure.status, model);
  return { ...typical, type: failure.code ?? typical.type, retryAfterSeconds: failure.retryAfterSeconds };
}

/** An overloaded API, the error Anthropic sends mid-stream (the streaming form of a 529). */
export function overloaded(): AnthropicError {
  return { status: 529, type: 'overloaded_error', message: 'Overloaded' };
}

function typicalError(status: number, model: string): AnthropicError {
  switch (status) {
    case 401:
      return { status, type: 'authentication_error', message: 'invalid x-api-key' };
    case 403:
      return { status, type: 'permission_error', message: 'Your API key does not have permission to use the specified resource.' };
    case 404:
      return { status, type: 'not_found_error', message: `model: ${model}` };
    case 413:
      return bodyTooLarge();
    case 429:
      return {
        status,
        type: 'rate_limit_error',
        message: 'This request would exceed the rate limit for your organization of 50 requests per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits.',
      };
    case 504:
      return { status, type: 'timeout_error', message: 'Request timed out' };
    case 529:
      return overloaded();
    default:
      return status >= 500
        ? { status, type: 'api_error', message: 'Internal server error' }
        : { status, type: 'invalid_request_error', message: `Simulated error with status ${status}.` };
  }
}
