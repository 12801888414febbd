import type { ModelConfig, ReasoningCapabilities } from '../../config/gateway-config-schema';
import { GatewayError } from '../../errors/gateway-error';
import type { UpstreamChatRequest } from '../../providers/chat-adapter';
import type { ChatRequest } from '../../providers/chat-request';

/**
 * The reasoning controls of the spec's "Chat completions with reasoning"
 * table, applied from the model's catalog capabilities:
 *
 * | rule                   | Claude (default off)          | o-series (always)   | Gemini 2.5 (default on)            |
 * |------------------------|-------------------------------|---------------------|------------------------------------|
 * | reasoning.effort       | low/medium/high = 20/50/80 %  | sent as effort      | refused                            |
 * |                        | of max_tokens as the budget   |                     |                                    |
 * | reasoning.max_tokens   | the budget (wins over effort) | refused             | the budget, >= 1024; 0 turns it    |
 * |                        | >= 1024 and < max_tokens      |                     | off where the model allows (flash) |
 * | #thinking suffix       | on, 80 % of max_tokens        | refused             | refused                            |
 * | temperature            | must be 1 while reasoning;    | refused, as are     | free                               |
 * |                        | top_k refused, top_p 0.95..1  | top_p and top_k     |                                    |
 * | max_tokens omitted     | the model's largest (catalog) | upstream default    | upstream default                   |
 *
 * A request that breaks a rule is refused with a 400 that names the
 * parameter and the rule, before any upstream call: where the spec says
 * "unsupported", the gateway refuses rather than silently dropping.
 */
export function applyReasoningRules(model: ModelConfig, req: ChatRequest, thinkingSuffix: boolean): UpstreamChatRequest {
  const { reasoning: _reasoning, reasoning_effort: _effort, ...rest } = req;
  const asked = askedReasoning(req, thinkingSuffix);
  const caps = model.reasoning;
  if (!caps) {
    if (asked.effort || asked.budget !== undefined || thinkingSuffix) {
      const param = thinkingSuffix ? 'model' : asked.effort ? asked.effortParam : 'reasoning.max_tokens';
      throw refuse(param, `The model "${model.id}" does not reason; remove ${thinkingSuffix ? 'the #thinking suffix' : `"${param}"`}.`);
    }
    return rest;
  }
  checkSupported(model.id, caps, asked);
  const on = reasoningIsOn(caps, asked);
  const maxTokens = rest.max_completion_tokens ?? rest.max_tokens ?? (caps.max_tokens_default === 'model_max' ? model.max_output_tokens : undefined);
  if (on) checkSampling(model.id, caps, req);

  if (caps.effort === 'native') {
    const { max_tokens: _max, ...withoutMax } = rest;
    return {
      ...withoutMax,
      ...(maxTokens !== undefined ? { max_completion_tokens: maxTokens } : {}),
      thinking: { enabled: true, ...(asked.effort ? { effort: asked.effort } : {}) },
    };
  }
  const { max_completion_tokens: _maxCompletion, ...withoutMaxCompletion } = rest;
  const sized = maxTokens !== undefined ? { ...withoutMaxCompletion, max_tokens: maxTokens } : withoutMaxCompletion;
  if (!on) return { ...sized, thinking: { enabled: false } };
  const budgetTokens = reasoningBudget(model.id, caps, asked, maxTokens);
  return { ...sized, thinking: { enabled: true, ...(budgetTokens !== undefined ? { budgetTokens } : {}), includeThoughts: caps.returns_text } };
}

interface AskedReasoning {
  effort?: 'low' | 'medium' | 'high';
  /** Which field carried the effort, for error messages. */
  effortParam: 'reasoning.effort' | 'reasoning_effort';
  budget?: number;
  suffix: boolean;
}

function askedReasoning(req: ChatRequest, suffix: boolean): AskedReasoning {
  const fromObject = req.reasoning?.effort ?? undefined;
  const native = req.reasoning_effort ?? undefined;
  if (fromObject && native && fromObject !== native) {
    throw refuse('reasoning_effort', `"reasoning_effort" (${native}) and "reasoning.effort" (${fromObject}) disagree; send one of them.`, 'invalid_parameter');
  }
  return {
    effort: fromObject ?? native,
    effortParam: fromObject ? 'reasoning.effort' : 'reasoning_effort',
    budget: req.reasoning?.max_tokens ?? undefined,
    suffix,
  };
}

function checkSupported(modelId: string, caps: ReasoningCapabilities, asked: AskedReasoning): void {
  if (asked.suffix && caps.thinking_suffix === false) {
    throw refuse('model', `The #thinking suffix is not supported by "${modelId}"${caps.default === 'always' ? ', which always reasons' : ''}; use the model name without it${caps.budget ? ' and set "reasoning.max_tokens"' : ''}.`);
  }
  if (asked.effort && caps.effort === false) {
    throw refuse(asked.effortParam, `"${asked.effortParam}" is not supported by "${modelId}"; set the reasoning budget with "reasoning.max_tokens" (at least ${caps.min_budget}) instead.`);
  }
  if (asked.budget === undefined) return;
  if (!caps.budget) {
    throw refuse('reasoning.max_tokens', `"reasoning.max_tokens" is not supported by "${modelId}"; control its reasoning with "reasoning.effort" (low, medium or high).`);
  }
  if (asked.budget === 0) {
    if (caps.default === 'on' && caps.can_disable) return;
    const why = caps.default === 'off'
      ? `reasoning is already off unless asked for; omit "reasoning" to keep "${modelId}" from reasoning`
      : `reasoning cannot be turned off on "${modelId}"`;
    throw refuse('reasoning.max_tokens', `"reasoning.max_tokens": 0 is not allowed: ${why}.`, 'invalid_parameter');
  }
  if (asked.budget < caps.min_budget) {
    throw refuse('reasoning.max_tokens', `"reasoning.max_tokens" must be at least ${caps.min_budget} when reasoning is on (got ${asked.budget}).`, 'invalid_parameter');
  }
  if (caps.max_budget !== undefined && asked.budget > caps.max_budget) {
    throw refuse('reasoning.max_tokens', `"reasoning.max_tokens" must be at most ${caps.max_budget} on "${modelId}" (got ${asked.budget}).`, 'invalid_parameter');
  }
}

function reasoningIsOn(caps: ReasoningCapabilities, asked: AskedReasoning): boolean {
  if (caps.default === 'always') return true;
  if (caps.default === 'on') return asked.budget !== 0;
  return Boolean(asked.effort || asked.budget || asked.suffix);
}

/** Sampling parameters while the model reasons. */
function checkSampling(modelId: string, caps: ReasoningCapabilities, req: ChatRequest): void {
  const present = (v: unknown) => v !== undefined && v !== null;
  if (caps.temperature === 'unsupported') {
    for (const param of ['temperature', 'top_p', 'top_k'] as const) {
      if (present(req[param])) throw refuse(param, `"${param}" is not supported by "${modelId}", which always reasons; remove it.`);
    }
    return;
  }
  if (caps.temperature !== 'must_be_1') return;
  if (present(req.temperature) && req.temperature !== 1) {
    throw refuse('temperature', `"temperature" must be 1 while "${modelId}" reasons (got ${req.temperature}); omit it or set it to 1.`, 'invalid_parameter');
  }
  if (present(req.top_k)) throw refuse('top_k', `"top_k" cannot be combined with reasoning on "${modelId}"; remove it.`);
  if (present(req.top_p) && (req.top_p! < 0.95 || req.top_p! > 1)) {
    throw refuse('top_p', `"top_p" must be between 0.95 and 1 while "${modelId}" reasons (got ${req.top_p}).`, 'invalid_parameter');
  }
  const choice = req.tool_choice;
  if (choice === 'required' || (choice && typeof choice === 'object')) {
    throw refuse('tool_choice', `Forcing a tool call ("tool_choice": ${JSON.stringify(choice)}) cannot be combined with reasoning on "${modelId}"; use "auto" or "none".`);
  }
}

/**
 * The token budget: `reasoning.max_tokens` wins over effort; effort and the
 * suffix reserve their share of max_tokens. The budget must stay at least the
 * minimum and below max_tokens (the answer needs room too).
 */
function reasoningBudget(modelId: string, caps: ReasoningCapabilities, asked: AskedReasoning, maxTokens: number | undefined): number | undefined {
  let budget: number | undefined;
  let source: string;
  let percent: number | undefined;
  if (asked.budget) {
    budget = asked.budget;
    source = '"reasoning.max_tokens"';
  } else if (asked.effort && typeof caps.effort === 'object') {
    percent = caps.effort[asked.effort];
    budget = share(maxTokens, percent);
    source = `"${asked.effortParam}": "${asked.effort}" (${caps.effort[asked.effort]}% of max_tokens)`;
  } else if (asked.suffix && caps.thinking_suffix !== false) {
    percent = caps.thinking_suffix;
    budget = share(maxTokens, percent);
    source = `the #thinking suffix (${caps.thinking_suffix}% of max_tokens)`;
  } else {
    return undefined;
  }
  if (budget === undefined) {
    throw refuse('max_tokens', `"max_tokens" is needed to size the reasoning budget on "${modelId}".`, 'invalid_parameter');
  }
  if (budget < caps.min_budget) {
    const hint = percent ? ` Raise "max_tokens" to at least ${Math.ceil((caps.min_budget * 100) / percent)}, or set "reasoning.max_tokens".` : '';
    throw refuse(asked.budget ? 'reasoning.max_tokens' : 'max_tokens', `${source} reserves ${budget} reasoning tokens, below the minimum of ${caps.min_budget}.${hint}`, 'invalid_parameter');
  }
  if (maxTokens !== undefined && budget >= maxTokens) {
    throw refuse('reasoning.max_tokens', `${source} reserves ${budget} reasoning tokens, which must be less than "max_tokens" (${maxTokens}) so the answer has room.`, 'invalid_parameter');
  }
  return budget;
}

function share(maxTokens: number | undefined, percent: number): number | undefined {
  return maxTokens === undefined ? undefined : Math.round((maxTokens * percent) / 100);
}

function refuse(param: string, message: string, code: 'unsupported_parameter' | 'invalid_parameter' = 'unsupported_parameter'): GatewayError {
  return new GatewayError(code, message, { param });
}
