import type { OpenAIError } from '../openai/errors';

/**
 * The Videos API's own errors, in OpenAI's envelope. The wording is the
 * simulator's: the status for content that is not ready is not confirmed;
 * 404 is what proxies report.
 * @see https://platform.openai.com/docs/guides/error-codes
 */
export function videoNotFound(id: string): OpenAIError {
  return invalidRequest(404, `Video with id '${id}' not found.`, 'not_found');
}

export function videoNotRemixable(id: string): OpenAIError {
  return invalidRequest(400, `Video '${id}' is not completed; only completed videos can be remixed.`, 'invalid_video_state');
}

export function contentNotAvailable(id: string, status: string): OpenAIError {
  const reason = status === 'completed' ? 'has expired' : `is not ready (status: ${status})`;
  return invalidRequest(404, `The content of video '${id}' ${reason}.`, 'content_not_available');
}

function invalidRequest(status: number, message: string, code: string): OpenAIError {
  return { status, error: { message, type: 'invalid_request_error', param: null, code } };
}
