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
 * |                        | of max_tokens as the budget,  |                     |                                    |
 * |                        | raised to the 1024 floor      |                     |                                    |
 * | reasoning.max_tokens   | the budget (wins over effort) | refused             | the budget, >= 1024; 0 turns it    |
 * |                        | >= 1024 and < max_tokens      |                     | off where the model allows (flash) |
 * | #thinking suffix       | on, 80 % of max_tokens        | refused             | refused                            |
 * | temperature            | must be 1 while reasoning;    | refused, as are     | free                               |
 * |                        | top_k refused, top_p 0.95..1  | top_p and top_k     |                                    |
 * | max_tokens omitted     | the model's largest (catalog) | upstream default    | upstream default                   |
 *
 * Only models whose upstream refuses a budget (catalog `control:
 * effort_level`: Claude 4.7 and later with adaptive thinking, Gemini 3 with
 * `thinkingLevel`) get an effort level: the client's effort as it is, a
 * budget or the suffix as the level whose share of max_tokens is nearest.
 * Every model that accepts a budget (Claude 4.6 included, which also takes
 * adaptive thinking) follows the share rule above. The same checks apply to
 * what the client sent.
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
  if (caps.control === 'effort_level') {
    const level = effortLevel(caps, asked, maxTokens);
    return { ...sized, thinking: { enabled: true, ...(level ? { effort: caps.effort_levels?.[level] ?? level } : {}), includeThoughts: caps.returns_text } };
  }
  const budgetTokens = reasoningBudget(model.id, caps, asked, maxTokens);
  return { ...sized, thinking: { enabled: true, ...(budgetTokens !== undefined ? { budgetTokens } : {}), includeThoughts: caps.returns_text } };
}

interface AskedReasoning {
  /** What the client sent; past checkSupported, one of the levels the model takes. */
  effort?: ReasoningEffort;
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

const SHARED_EFFORTS: readonly string[] = ['low', 'medium', 'high'];

function checkSupported(modelId: string, caps: ReasoningCapabilities, asked: AskedReasoning): void {
  const efforts = caps.effort === 'native' ? (caps.native_efforts ?? SHARED_EFFORTS) : SHARED_EFFORTS;
  if (asked.effort && caps.effort !== false && !efforts.includes(asked.effort)) {
    throw refuse(asked.effortParam, `"${asked.effortParam}": "${asked.effort}" is not supported by "${modelId}"; use ${efforts.slice(0, -1).join(', ')} or ${efforts.at(-1)}.`, 'invalid_parameter');
  }
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
 * suffix reserve their share of max_tokens, raised to the model's minimum
 * when the share falls below it. The budget must stay below max_tokens (the
 * answer needs room too), so a max_tokens that cannot hold the minimum plus
 * an answer is refused with the value to raise it to.
 */
function reasoningBudget(modelId: string, caps: ReasoningCapabilities, asked: AskedReasoning, maxTokens: number | undefined): number | undefined {
  let budget: number | undefined;
  let source: string;
  if (asked.budget) {
    budget = asked.budget;
    source = '"reasoning.max_tokens"';
  } else if (asked.effort && typeof caps.effort === 'object') {
    const level = asked.effort as EffortLevel;
    budget = share(maxTokens, caps.effort[level]);
    source = `"${asked.effortParam}": "${level}" (${caps.effort[level]}% of max_tokens)`;
  } else if (asked.suffix && caps.thinking_suffix !== false) {
    budget = share(maxTokens, caps.thinking_suffix);
    source = `the #thinking suffix (${caps.thinking_suffix}% of max_tokens)`;
  } else {
    return undefined;
  }
  if (budget === undefined) {
    throw refuse('max_tokens', `"max_tokens" is needed to size the reasoning budget on "${modelId}".`, 'invalid_parameter');
  }
  if (!asked.budget && budget < caps.min_budget) {
    if (maxTokens !== undefined && maxTokens <= caps.min_budget) {
      throw refuse('max_tokens', `${source} needs a reasoning budget of at least ${caps.min_budget} tokens plus room for the answer, but "max_tokens" is ${maxTokens}. Raise "max_tokens" above ${caps.min_budget}.`, 'invalid_parameter');
    }
    budget = caps.min_budget;
  }
  if (maxTokens !== undefined && budget >= maxTokens) {
    throw refuse('reasoning.max_tokens', `${source} reserves ${budget} reasoning tokens, which must be less than "max_tokens" (${maxTokens}) so the answer has room.`, 'invalid_parameter');
  }
  return budget;
}

/**
 * The effort level for an upstream that takes levels: the client's level,
 * or the level whose share of max_tokens is nearest to the budget or suffix
 * asked for; none leaves the upstream's default.
 */
function effortLevel(caps: ReasoningCapabilities, asked: AskedReasoning, maxTokens: number | undefined): EffortLevel | undefined {
  if (asked.budget && !asked.effort) {
    if (maxTokens === undefined) return 'high';
    if (asked.budget >= maxTokens) {
      throw refuse('reasoning.max_tokens', `"reasoning.max_tokens" (${asked.budget}) must be less than "max_tokens" (${maxTokens}) so the answer has room.`, 'invalid_parameter');
    }
  }
  if (asked.effort) return asked.effort as EffortLevel;
  const shares = caps.effort as Record<EffortLevel, number>;
  const percent = asked.budget ? (asked.budget * 100) / maxTokens! : asked.suffix && caps.thinking_suffix !== false ? caps.thinking_suffix : undefined;
  if (percent === undefined) return undefined;
  return (Object.keys(shares) as EffortLevel[]).reduce((best, level) => (Math.abs(shares[level] - percent) < Math.abs(shares[best] - percent) ? level : best));
}

/** The levels every reasoning family takes, and that shares and upstream level names are given for. */
type EffortLevel = 'low' | 'medium' | 'high';
type ReasoningEffort = NonNullable<ChatRequest['reasoning_effort']>;

function share(maxTokens: number | undefined, percent: number): number | undefined {
  return maxTokens === undefined ? undefined : Math.round((maxTokens * percent) / 100);
}

function refuse(param: string, message: string, code: 'unsupported_parameter' | 'invalid_parameter' = 'unsupported_parameter'): GatewayError {
  return new GatewayError(code, message, { param });
}
