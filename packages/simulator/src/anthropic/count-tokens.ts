import type { Exchange } from '../routing';
import { sendAnthropicError } from './errors';
import { validateMessages } from './messages-request';
import { promptPieces } from './messages-usage';
import { anthropicJsonBody } from './request-body';
import { sendAnthropicJson } from './respond';

/**
 * `POST /v1/messages/count_tokens`: the prompt's tokens as a Messages call
 * would count them (tools, system and messages, on the same rule as the
 * usage of an answer), without any cache accounting: counting is free and
 * touches no cache.
 * @see https://docs.anthropic.com/en/api/messages-count-tokens
 */
export function handleCountTokens(exchange: Exchange): void {
  const body = anthropicJsonBody(exchange.body);
  if (!body.ok) return sendAnthropicError(exchange.res, body.error);
  const validated = validateMessages(body.value);
  if (!validated.ok) return sendAnthropicError(exchange.res, validated.error);
  const inputTokens = promptPieces(validated.request).reduce((sum, piece) => sum + piece.tokens, 0);
  sendAnthropicJson(exchange.res, 200, { input_tokens: inputTokens });
}
