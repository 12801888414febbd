import type { SimulatorContext } from '../context';
import { type Directives, parseDirectives, withoutFailureKnobs } from '../directives';
import type { Exchange } from '../routing';
import { passOpenAIDirectiveGate } from './directive-gate';
import { type OpenAIError, badDirective, sendOpenAIError } from './errors';
import { openaiJsonBody } from './request-body';

/** How one OpenAI endpoint reads its requests: its checks, where its directives are written, what it refuses. */
export interface OpenAIRequestRules<R extends { model: string }> {
  validate(json: object): { ok: true; request: R } | { ok: false; error: OpenAIError };
  directiveText(request: R): string;
  refusal(request: R): OpenAIError | undefined;
}

/**
 * The steps every OpenAI endpoint of the simulator takes before it answers,
 * in the real API's order: the body, the request's own checks, the
 * `[sim ...]` directives, the model's refusals, then the directive gate
 * (errors, latency, hangs). Undefined when one of them already answered.
 */
export async function admitOpenAIRequest<R extends { model: string }>(
  context: SimulatorContext,
  exchange: Exchange,
  rules: OpenAIRequestRules<R>,
): Promise<{ request: R; directives: Directives } | undefined> {
  const { res } = exchange;
  const body = openaiJsonBody(exchange.body, context.options.maxBodyBytes);
  if (!body.ok) return void sendOpenAIError(res, body.error);
  const validated = rules.validate(body.value);
  if (!validated.ok) return void sendOpenAIError(res, validated.error);
  const { request } = validated;
  const directiveText = rules.directiveText(request);
  const parsed = parseDirectives(directiveText);
  if (!parsed.ok) return void sendOpenAIError(res, badDirective(parsed.message));
  const refusal = rules.refusal(request);
  if (refusal) return void sendOpenAIError(res, refusal);
  const directives = aimedAt(parsed.directives, request);
  if (!(await passOpenAIDirectiveGate(context, exchange, directives, directiveText, request.model))) return undefined;
  return { request, directives };
}

/** `schema=` aims the failure knobs at requests with that structured-output schema; others pass. */
function aimedAt(directives: Directives, request: object): Directives {
  if (directives.schema === undefined) return directives;
  const name = (request as { response_format?: { json_schema?: { name?: unknown } } }).response_format?.json_schema?.name;
  return name === directives.schema ? directives : withoutFailureKnobs(directives);
}
