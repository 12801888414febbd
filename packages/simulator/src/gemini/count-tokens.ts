import type { SimulatorContext } from '../context';
import { isUnknownModel } from '../openai/models';
import type { Exchange } from '../routing';
import { invalidArgument, modelNotFound, sendGeminiError } from './errors';
import { type GenerateContentRequest, validateGenerateContentRequest } from './generate-request';
import { geminiJsonBody } from './request-body';
import { sendGeminiJson } from './respond';
import { countPromptTokens } from './usage';

/**
 * `POST /v1beta/models/{model}:countTokens`: `{contents}` or
 * `{generateContentRequest}`, counted by the same rule as a generated
 * answer's `promptTokenCount`, so that a count and the call it was made for
 * agree. Answers `{totalTokens, promptTokensDetails}`.
 * @see https://ai.google.dev/api/tokens#method:-models.counttokens
 */
export async function handleCountTokens(context: SimulatorContext, exchange: Exchange, model: string): Promise<void> {
  const { res } = exchange;
  const body = geminiJsonBody(exchange.body, context.options.maxBodyBytes);
  if (!body.ok) return sendGeminiError(res, body.error);
  if (isUnknownModel(model)) return sendGeminiError(res, modelNotFound(model, 'countTokens'));
  const value = body.value as { contents?: unknown; generateContentRequest?: unknown };
  if (value.contents !== undefined && value.generateContentRequest !== undefined) {
    return sendGeminiError(res, invalidArgument('* CountTokensRequest: contents and generate_content_request are mutually exclusive\n'));
  }
  const asked = value.generateContentRequest ?? { contents: value.contents };
  const { model: _named, ...request } = (typeof asked === 'object' && asked !== null ? asked : {}) as { model?: unknown };
  const validated = validateGenerateContentRequest(request);
  if (!validated.ok) return sendGeminiError(res, validated.error);
  const prompt = countPromptTokens(model, validated.request as GenerateContentRequest);
  const details = [
    ...(prompt.text > 0 ? [{ modality: 'TEXT', tokenCount: prompt.text }] : []),
    ...(prompt.image > 0 ? [{ modality: 'IMAGE', tokenCount: prompt.image }] : []),
  ];
  sendGeminiJson(res, 200, { totalTokens: prompt.text + prompt.image, promptTokensDetails: details });
}
