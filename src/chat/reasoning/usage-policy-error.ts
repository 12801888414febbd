import { GatewayError } from '../../errors/gateway-error';

/**
 * OpenAI's reasoning models answer 400 `invalid_prompt` when a prompt was
 * flagged under the usage policies. The advice for OpenAI's reasoning models is to
 * check the prompt against the usage rules, so the client is told exactly
 * that instead of a bare upstream message.
 */
export function explainUsagePolicyRefusal(family: string, err: GatewayError): GatewayError {
  if (family !== 'openai-reasoning' || err.status !== 400) return err;
  const upstreamCode = (err.options.details?.upstream_code as string | undefined) ?? err.code;
  if (upstreamCode !== 'invalid_prompt' && !/usage polic|flagged/i.test(err.message)) return err;
  return new GatewayError('invalid_prompt', `The model refused the prompt as potentially violating its usage rules. Check the prompt against the provider's usage policies and rephrase it. (${err.message})`, {
    param: 'messages',
    details: err.options.details,
  });
}
