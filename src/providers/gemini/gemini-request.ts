import type { UpstreamChatRequest } from '../chat-adapter';
import { UnsupportedParameterError } from '../unsupported-parameter';
import { convertToGeminiContents } from './convert-to-gemini-contents';
import { GEMINI_IMAGE_DOWNLOAD_LIMITS, type ImageDownloadLimits } from './download-image';
import type { GenerateContentRequest } from './gemini-api';
import { toGeminiGenerationConfig } from './gemini-generation-config';
import { prepareGeminiTools } from './gemini-prepare-tools';

export interface GeminiRequestOptions {
  signal?: AbortSignal;
  imageDownload?: ImageDownloadLimits;
}

/**
 * The `generateContent` body for a chat request. Runs before any upstream
 * call, so a field Gemini cannot express fails here as an
 * UnsupportedParameterError. Fields that only describe the client's side of
 * the exchange (`user`, `stream_options`) are not sent.
 * @see https://ai.google.dev/api/generate-content#method:-models.generatecontent
 */
export async function toGeminiRequest(request: UpstreamChatRequest, options: GeminiRequestOptions = {}): Promise<GenerateContentRequest> {
  refuseUnsupportedParameters(request);
  const conversation = await convertToGeminiContents(request.messages, {
    imageDownload: options.imageDownload ?? GEMINI_IMAGE_DOWNLOAD_LIMITS,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const generationConfig = toGeminiGenerationConfig(request);
  return {
    ...conversation,
    ...(generationConfig ? { generationConfig } : {}),
    ...prepareGeminiTools(request.tools, request.tool_choice),
  };
}

/**
 * Requests Gemini could not honour. Log probabilities and token biases have
 * no equivalent here, and Gemini cannot be kept from calling several
 * functions at once, so `parallel_tool_calls: false` would be silently broken.
 */
function refuseUnsupportedParameters(request: UpstreamChatRequest): void {
  if (request.logprobs) throw unsupported('logprobs', 'log probabilities are not available through the Gemini adapter');
  if (request.top_logprobs != null) throw unsupported('top_logprobs', 'log probabilities are not available through the Gemini adapter');
  if (request.logit_bias && Object.keys(request.logit_bias).length > 0) throw unsupported('logit_bias', 'Gemini models take no token biases');
  if (request.parallel_tool_calls === false) throw unsupported('parallel_tool_calls', 'Gemini models cannot be limited to one function call per turn');
}

function unsupported(param: string, reason: string): UnsupportedParameterError {
  return new UnsupportedParameterError(param, `"${param}" is not supported for this model: ${reason}.`);
}
