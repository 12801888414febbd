import { countTextTokens } from '../billing/local-token-count';
import type { ModelConfig } from '../config/gateway-config-schema';
import { GatewayError } from '../errors/gateway-error';

type DecisionSpec = NonNullable<ModelConfig['decision']>;

/** The state as the model reads it: a string as given, an object as its JSON. */
export function stateText(state: string | Record<string, unknown>): string {
  return typeof state === 'string' ? state : JSON.stringify(state);
}

/**
 * The state must be something the model takes (text, or JSON for an
 * object), may be empty only beside images, and must fit: on a model that
 * reads images, at most `max_state_bytes` UTF-8 bytes; on every model,
 * within its prompt token limit (counted only when its bytes could exceed
 * it: a token is never less than a byte).
 */
export function checkState(modelId: string, config: ModelConfig, state: string | Record<string, unknown>, imageCount: number): void {
  const spec = config.decision as DecisionSpec;
  const kind = typeof state === 'string' ? 'text' : 'json';
  if (!spec.inputs.includes(kind)) {
    throw new GatewayError('invalid_parameter', `"state" is ${kind === 'text' ? 'text' : 'a JSON object'}, which "${modelId}" does not take; it takes ${spec.inputs.join(', ')}.`, { param: 'state' });
  }
  const text = stateText(state);
  const empty = typeof state === 'string' ? state.trim() === '' : Object.keys(state).length === 0;
  if (empty && imageCount === 0) throw new GatewayError('invalid_parameter', '"state" is empty; it may be empty only when images come with it.', { param: 'state' });
  const bytes = Buffer.byteLength(text);
  if (spec.inputs.includes('image') && spec.max_state_bytes !== undefined && bytes > spec.max_state_bytes) {
    throw new GatewayError('state_too_large', `"state" is ${bytes} UTF-8 bytes; "${modelId}" reads images and takes at most ${spec.max_state_bytes} bytes of state beside them. Shorten it.`, {
      param: 'state', details: { bytes, max_state_bytes: spec.max_state_bytes },
    });
  }
  const limit = config.max_input_tokens ?? config.context_window;
  if (bytes > limit) {
    const tokens = countTextTokens(text);
    if (tokens > limit) {
      throw new GatewayError('state_too_large', `"state" is about ${tokens} tokens; "${modelId}" takes at most ${limit} tokens of prompt. Shorten it, or split the decision.`, {
        param: 'state', details: { tokens, max_input_tokens: limit },
      });
    }
  }
}
