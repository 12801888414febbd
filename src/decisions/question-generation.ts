import type { Ledger } from '../billing/ledger';
import type { UsageRecorder } from '../billing/usage-recorder';
import type { Catalog, CatalogModel } from '../catalog/catalog';
import type { DecisionSwitches } from '../config/decision-switches';
import { Deadline } from '../deadlines/deadline';
import { GatewayError } from '../errors/gateway-error';
import { newRequestStamp } from '../http/request-id';
import { spendEstimateOf } from '../model-call/call-spend-estimate';
import { openModelCall } from '../model-call/open-model-call';
import type { RequestContext } from '../model-call/request-context';
import { settlementOf, tryRoutes } from '../model-call/route-attempts';
import { toGatewayError } from '../model-call/to-gateway-error';
import type { RateLimits } from '../limits/rate-limits';
import type { Logger } from '../observability/logger';
import type { Routing } from '../model-call/routing';
import { chatRequestSchema } from '../providers/chat-request';
import { parseJsonOrUndefined } from '../providers/parse-json';
import type { DecisionImage } from './decision-images';
import { readQuestions, type DecisionQuestions, type QuestionPolicy } from './decision-questions';
import { DECISION_TIME_LIMITS, type DecisionTimeLimits } from './decision-time-limits';
import { DECISIONS_ENDPOINT } from './decisions-endpoint';
import { GENERATION_PROMPT_VERSION, generatedToQuestions, generationMessages, questionsSchema, QUESTIONS_SCHEMA_NAME } from './generation-prompt';
import { completeStructured } from './structured-call';

/** Question generations per minute, per key and per account, on every instance together. */
export const GENERATIONS_PER_MINUTE = 2;
const GENERATION_MAX_TOKENS = 4_000;

export interface GenerationInput {
  state: string | Record<string, unknown>;
  images: DecisionImage[];
  /** The generator the request named, if any. */
  model: string | undefined;
  /** What the decision model takes: generated questions must fit it too. */
  policy: QuestionPolicy;
  /** The whole decision's deadline (which ends with the client too); the generation stops at the earlier of it and its own limit. */
  deadline: AbortSignal;
}

/** What a generation gave: the questions, and its own record. */
export interface Generation {
  questions: DecisionQuestions;
  model: string;
  requestId: string;
  promptVersion: string;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

export interface QuestionGeneratorDeps {
  catalog: Catalog;
  recorder: UsageRecorder;
  ledger: Ledger;
  rateLimits: RateLimits;
  routing: Routing;
  logger: Logger;
  /** Its `generationMs` is the most a generation may take. */
  timeLimits?: DecisionTimeLimits;
}

/**
 * Writes a decision's questions with a generator model, as a stage of its
 * own: its own usage record (and hold, for an account under spend control)
 * under a request id of its own, linked to the decision's. The generator
 * is the request's, else the first the key is limited to that can write
 * structured output, else the platform's; the key (and its temporary
 * credential) must allow it, and it must declare structured output (and
 * vision for images). At most 2 generations per minute per key and per
 * account. Questions that fail the checks explicit questions pass are
 * unusable: the generation's charge goes back to the wallet and key it came
 * from (a refund entry naming both records) and the decision fails with
 * 502 `generated_questions_unusable`.
 */
export class QuestionGenerator {
  constructor(private readonly deps: QuestionGeneratorDeps) {}

  async generate(ctx: RequestContext, switches: DecisionSwitches, input: GenerationInput): Promise<Generation> {
    const generator = this.generatorFor(ctx, switches, input);
    const refusal = await this.deps.rateLimits.admitQuestionGeneration(ctx.principal, GENERATIONS_PER_MINUTE);
    if (refusal) throw refusal;
    const candidates = this.deps.catalog.resolve(generator.id, ctx.principal, 'chat', DECISIONS_ENDPOINT);
    const request = chatRequestSchema.parse({
      model: generator.id,
      messages: generationMessages(input.state, input.images),
      response_format: { type: 'json_schema', json_schema: { name: QUESTIONS_SCHEMA_NAME, strict: true, schema: questionsSchema() } },
      max_completion_tokens: Math.min(GENERATION_MAX_TOKENS, generator.config.max_output_tokens ?? GENERATION_MAX_TOKENS),
    });
    const stage = openModelCall(this.deps.recorder, this.deps.logger, {
      ...newRequestStamp(), principal: ctx.principal, endpoint: DECISIONS_ENDPOINT, startedAt: performance.now(), span: ctx.span,
    });
    const gen: RequestContext = { ...stage.context, signal: ctx.signal };
    gen.ticket.noteRequestedModel(generator.id);
    const record = { stage: 'question_generation' as const, prompt_version: GENERATION_PROMPT_VERSION, linked_request_id: ctx.requestId };
    let answer;
    try {
      answer = await Deadline.run((this.deps.timeLimits ?? DECISION_TIME_LIMITS).generationMs, [input.deadline], (deadline) =>
        tryRoutes(gen, this.deps.routing, candidates, async (attempt) => {
          const structured = await completeStructured(gen, attempt, request, deadline, `The question generator "${generator.id}"`);
          await gen.ticket.settle({ ...settlementOf(attempt, { statusCode: 200, usage: structured.usage, charge: true, ttftMs: null, wasStreaming: false, errorCode: null }), decision: record });
          return structured;
        }, { spend: () => spendEstimateOf('chat', request), failedRecord: () => ({ decision: record }) }));
    } catch (err) {
      // Refused before any attempt (a budget, the wallet): the stage still gets its record.
      if (!gen.ticket.isSettled) {
        const told = toGatewayError(err);
        await gen.ticket.settle({ statusCode: told?.status ?? 500, usage: null, pricedAs: null, charge: false, ttftMs: null, wasStreaming: false, servedBy: null, errorCode: told?.code ?? 'internal_error', decision: record });
      }
      throw err;
    }
    const generation = { model: generator.id, requestId: gen.requestId, promptVersion: GENERATION_PROMPT_VERSION, usage: clientUsage(answer.usage) };
    const shaped = generatedToQuestions(parseJsonOrUndefined(answer.content));
    try {
      if ('problem' in shaped) throw new Error(shaped.problem);
      return { ...generation, questions: readQuestions(shaped.questions, input.policy, 'questions') };
    } catch (err) {
      throw await this.unusable(ctx, generation, err);
    }
  }

  /** The generator to use, checked: it exists, the key may use it, it writes structured output (and reads images when there are any). */
  private generatorFor(ctx: RequestContext, switches: DecisionSwitches, input: GenerationInput): CatalogModel {
    const fit = (m: CatalogModel) => m.config.endpoint_types.includes('chat') && m.config.capabilities.json_output && (!input.images.length || m.config.capabilities.vision);
    const allowed = ctx.principal.allowedModels;
    const name = input.model
      ?? (allowed ? [...allowed].find((id) => { const m = this.deps.catalog.model(id); return m !== undefined && fit(m); }) : undefined)
      ?? switches.generatorModel;
    if (!name) throw new GatewayError('generator_not_capable', 'No generator model is set: name one in "question_generation.model".', { param: 'question_generation.model' });
    // Not found, not allowed for this key (or its credential), or no chat model: the catalog's own errors.
    const model = this.deps.catalog.resolve(name, ctx.principal, 'chat', DECISIONS_ENDPOINT)[0]!.model;
    if (!model.config.capabilities.json_output) {
      throw new GatewayError('generator_not_capable', `The generator "${name}" does not declare structured output, which question generation needs. Name another in "question_generation.model".`, { param: 'question_generation.model' });
    }
    if (input.images.length && !model.config.capabilities.vision) {
      throw new GatewayError('generator_not_capable', `The generator "${name}" does not read images, and this request has some. Name a vision model in "question_generation.model".`, { param: 'question_generation.model' });
    }
    return model;
  }

  /**
   * Unusable questions: the generation's charge is refunded to the wallet and
   * key it came from (one refund entry naming the decision too), or, for an
   * account without a wallet, its record lowered to zero; the decision fails.
   */
  private async unusable(ctx: RequestContext, generation: Omit<Generation, 'questions'>, cause: unknown): Promise<GatewayError> {
    const problem = cause instanceof GatewayError ? cause.message : (cause as Error).message;
    let refunded = 0n;
    try {
      if (ctx.principal.spendControlled) {
        const outcome = await this.deps.ledger.refund(generation.requestId, null, 'generated decision questions were unusable', ctx.requestId);
        if (outcome.kind === 'refunded') refunded = (await this.deps.ledger.forRequest(generation.requestId)).filter((e) => e.kind === 'refund').reduce((sum, e) => sum + BigInt(e.amount_microusd), 0n);
      } else {
        refunded = await this.deps.ledger.refundRecord(generation.requestId);
      }
    } catch (err) {
      ctx.logger.error('the charge of unusable generated questions could not be refunded; refund it with POST /api/admin/refunds', { generation_request_id: generation.requestId, err });
      return new GatewayError('generated_questions_unusable', `The generated questions cannot be used (${problem}), and their charge could not be refunded yet: the operator can refund request ${generation.requestId}. Retry, or send explicit "questions".`, {
        details: { question_generation: generationView(generation), refunded: false },
      });
    }
    ctx.logger.warn('generated decision questions were unusable; the generation was refunded', { generation_request_id: generation.requestId, refunded_microusd: Number(refunded), problem });
    return new GatewayError('generated_questions_unusable', `The generated questions cannot be used (${problem}); the generation's charge was refunded. Retry, or send explicit "questions".`, {
      details: { question_generation: generationView(generation), refunded: true, refunded_microusd: Number(refunded) },
    });
  }
}

export function generationView(g: Omit<Generation, 'questions'>): Record<string, unknown> {
  return { model: g.model, request_id: g.requestId, prompt_version: g.promptVersion, usage: g.usage };
}

function clientUsage(usage: { promptTokens: number; completionTokens: number }): Generation['usage'] {
  return { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.promptTokens + usage.completionTokens };
}
