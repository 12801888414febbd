import { GatewayError } from '../../errors/gateway-error';
import { mapUpstreamError } from '../../model-call/to-gateway-error';
import { openAIErrorFromResponse } from '../../providers/openai/openai-errors';
import { explainUsagePolicyRefusal } from './usage-policy-error';

/** OpenAI's answer to a flagged prompt on a reasoning model. */
const FLAGGED_MESSAGE = 'Invalid prompt: your prompt was flagged as potentially violating our usage policy. Please try again with a different prompt.';
const flaggedBody = JSON.stringify({ error: { message: FLAGGED_MESSAGE, type: 'invalid_request_error', param: null, code: 'invalid_prompt' } });

const upstream400 = (message: string, code?: string) =>
  new GatewayError('upstream_invalid_request', message, {
    upstreamCode: code,
    details: { upstream_status: 400, ...(code ? { upstream_code: code } : {}) },
  });

describe('explainUsagePolicyRefusal', () => {
  it('explains the real OpenAI invalid_prompt answer on a reasoning model', () => {
    const mapped = mapUpstreamError(openAIErrorFromResponse(400, {}, flaggedBody));
    const out = explainUsagePolicyRefusal('openai-reasoning', mapped);
    expect(out).not.toBe(mapped);
    expect({ status: out.status, code: out.code, type: out.type, param: out.options.param }).toEqual({
      status: 400, code: 'invalid_prompt', type: 'invalid_request_error', param: 'messages',
    });
    expect(out.message).toMatch(/^The model refused the prompt as potentially violating its usage rules\. Check the prompt against the provider's usage policies/);
    expect(out.message).toContain(`(The upstream rejected the request: ${FLAGGED_MESSAGE})`);
    expect(out.options.details).toEqual({ upstream_status: 400, upstream_code: 'invalid_prompt' });
  });

  it.each([
    ['upstream code invalid_prompt', upstream400('Invalid prompt.', 'invalid_prompt')],
    ['no code, message says usage policy', upstream400('This prompt may violate our Usage Policies.')],
    ['no code, message says flagged', upstream400('Your request was FLAGGED.')],
    ['the gateway code itself is invalid_prompt', new GatewayError('invalid_prompt', 'refused')],
  ])('explains a 400 with %s', (_, err) => {
    const out = explainUsagePolicyRefusal('openai-reasoning', err);
    expect(out.code).toBe('invalid_prompt');
    expect(out.options.param).toBe('messages');
    expect(out.message).toContain(`(${err.message})`);
  });

  it.each([
    ['another family', 'openai', upstream400('Invalid prompt.', 'invalid_prompt')],
    ['anthropic', 'anthropic', upstream400('flagged by usage policy')],
    ['a 429', 'openai-reasoning', new GatewayError('upstream_rate_limited', 'flagged', { upstreamCode: 'invalid_prompt' })],
    ['a 502', 'openai-reasoning', new GatewayError('upstream_error', 'usage policy')],
    ['another 400 code', 'openai-reasoning', upstream400("Unsupported parameter: 'max_tokens'", 'unsupported_parameter')],
    ['a gateway refusal', 'openai-reasoning', new GatewayError('unsupported_parameter', '"temperature" is not supported', { param: 'temperature' })],
  ])('leaves %s unchanged', (_, family, err) => {
    expect(explainUsagePolicyRefusal(family, err)).toBe(err);
  });
});
