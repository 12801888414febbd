import type { Catalog, Candidate } from '../catalog/catalog';
import type { DecisionStage } from '../billing/usage-record-columns';
import { Deadline } from '../deadlines/deadline';
import { GatewayError } from '../errors/gateway-error';
import { parseRequest } from '../errors/parse-request';
import type { RequestContext } from '../model-call/request-context';
import { settlementOf, tryRoutes } from '../model-call/route-attempts';
import type { Routing } from '../model-call/routing';
import { chatRequestSchema, type ChatRequest } from '../providers/chat-request';
import { answersSchema, ANSWERS_SCHEMA_NAME } from './answer-schema';
import { readAnswers, type DecisionAnswer } from './decision-answers';
import { readDecisionImages, type DecisionImage } from './decision-images';
import { evaluationMessages, EVALUATION_PROMPT_VERSION } from './decision-prompt';
import { readQuestions, type DecisionQuestions, type QuestionPolicy } from './decision-questions';
import { decisionRequestSchema, type DecisionRequest } from './decision-request-schema';
import { checkState } from './decision-state';
import { DECISION_TIME_LIMITS, type DecisionTimeLimits } from './decision-time-limits';
import { DECISIONS_ENDPOINT } from './decisions-endpoint';
import { generationView, type Generation, type QuestionGenerator } from './question-generation';
import { completeStructured } from './structured-call';

/** The native evaluation's attempts at most (its time limit is in DecisionTimeLimits). */
const EVALUATION_ATTEMPTS = 2;
/** The whole request as sent upstream, images included. */
export const MAX_UPSTREAM_REQUEST_BYTES = 13 * 1024 * 1024;
/** Alternatives asked for at each answer token. */
const TOP_LOGPROBS = 10;
/** Output tokens per question: room for the answer, its probabilities and the JSON around them. */
const OUTPUT_TOKENS_PER_QUESTION = 60;

export interface DecisionResponse {
  id: string;
  object: 'decision';
  created: number;
  model: string;
  answers: Record<string, DecisionAnswer>;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  questions?: DecisionQuestions;
  question_generation?: Record<string, unknown>;
}

/**
 * `POST /v1/decisions`: explicit questions (or generated ones, see
 * QuestionGenerator) judged over text, JSON or images by a decision model
 * with structured output. Everything is checked before any upstream call
 * or charge; the evaluation has 10 s and at most 2 provider attempts, both
 * stages 25 s; the evaluation's record bills the decision model's tokens
 * only (a generation has its own record).
 */
export class DecisionService {
  constructor(
    private readonly catalog: Catalog,
    private readonly generator: QuestionGenerator,
    private readonly routing: Routing,
    private readonly timeLimits: DecisionTimeLimits = DECISION_TIME_LIMITS,
  ) {}

  /** Whether the operator turned decisions on (the catalog carries the switch, so it changes at runtime). */
  get enabled(): boolean {
    return this.catalog.contents.decisions.enabled;
  }

  /** Both stages within the whole decision's time limit, which also ends when the client leaves. */
  decide(ctx: RequestContext, raw: unknown): Promise<DecisionResponse> {
    return Deadline.run(this.timeLimits.totalMs, [ctx.signal], (deadline) => this.decideWithin(ctx, raw, deadline));
  }

  private async decideWithin(ctx: RequestContext, raw: unknown, deadline: Deadline): Promise<DecisionResponse> {
    ctx.ticket.noteRequestedModel(raw && typeof raw === 'object' ? (raw as { model?: unknown }).model : undefined);
    const req = parseRequest(decisionRequestSchema, raw);
    const candidates = this.catalog.resolve(req.model, ctx.principal, 'decisions', DECISIONS_ENDPOINT);
    const model = candidates[0]!.model;
    const spec = model.config.decision!;
    const policy: QuestionPolicy = { maxQuestions: spec.max_questions, kinds: spec.question_kinds };
    const takesImages = spec.inputs.includes('image');
    if (req.images?.length && !takesImages) {
      throw new GatewayError('images_not_supported', `"${model.id}" judges text and JSON only and takes no images. Leave "images" out, or use a decision model that reads images.`, { param: 'images' });
    }
    const images = req.images ? readDecisionImages(req.images, spec.max_images) : [];
    checkState(model.id, model.config, req.state, images.length);
    const explicit = req.questions ? readQuestions(req.questions, policy) : undefined;
    if (!explicit) this.checkGenerationAsked(req);
    // The evaluation's request is checked for size before anything is generated or charged.
    checkUpstreamSize(evaluationRequest(req, explicit ?? {}, images, candidates[0]!));

    let generation: Generation | undefined;
    if (!explicit) generation = await this.generator.generate(ctx, this.catalog.contents.decisions, { state: req.state, images, model: req.question_generation?.model, policy, deadline: deadline.signal });
    const questions = explicit ?? generation!.questions;
    const record: DecisionStage = { stage: 'evaluation', prompt_version: EVALUATION_PROMPT_VERSION, linked_request_id: generation?.requestId ?? null, questions: explicit ? 'explicit' : 'generated' };
    const attempts = candidates.length >= EVALUATION_ATTEMPTS ? candidates.slice(0, EVALUATION_ATTEMPTS) : [candidates[0]!, candidates[0]!];
    try {
      return await Deadline.run(this.timeLimits.evaluationMs, [deadline.signal], (evaluationDeadline) => tryRoutes(ctx, this.routing, attempts, async (attempt) => {
        const request = evaluationRequest(req, questions, images, attempt.candidate);
        const structured = await completeStructured(ctx, attempt, request, evaluationDeadline, `The decision model "${model.id}"`);
        const answers = readAnswers(structured.content, structured.logprobs, questions);
        await ctx.ticket.settle({ ...settlementOf(attempt, { statusCode: 200, usage: structured.usage, charge: true, ttftMs: null, wasStreaming: false, errorCode: null }), decision: record });
        const usage = { prompt_tokens: structured.usage.promptTokens, completion_tokens: structured.usage.completionTokens, total_tokens: structured.usage.promptTokens + structured.usage.completionTokens };
        return {
          id: `dec_${ctx.requestId.replace(/^req_/, '')}`,
          object: 'decision' as const,
          created: Math.floor(Date.now() / 1000),
          model: req.model,
          answers,
          usage,
          ...(generation ? { questions, question_generation: generationView(generation) } : {}),
        };
      }, { retryLastRoute: false, spend: () => ({ promptTokens: Buffer.byteLength(JSON.stringify(evaluationRequest(req, questions, images, candidates[0]!))), outputCap: outputCap(questions) }), failedRecord: () => ({ decision: record }) }));
    } catch (err) {
      // The generation's charge stands: its questions come back to be sent as explicit ones, which costs no second generation.
      if (generation && err instanceof GatewayError) {
        throw new GatewayError(err.registryCode, `${err.message} The generated questions are in error.details.questions: send them as "questions" to retry without a second generation.`, {
          ...err.options, details: { ...(err.options.details ?? {}), questions: generation.questions, question_generation: generationView(generation) },
        });
      }
      throw err;
    }
  }

  private checkGenerationAsked(req: DecisionRequest): void {
    if (!req.question_generation?.enabled) {
      throw new GatewayError('invalid_parameter', '"questions" is required: give 1 to 64 questions, or set "question_generation": {"enabled": true} where the operator allows it.', { param: 'questions' });
    }
    if (!this.catalog.contents.decisions.questionGeneration) {
      throw new GatewayError('question_generation_disabled', 'Automatic question generation is turned off on this gateway; send explicit "questions". The operator enables it with GATEWAY_DECISIONS_QUESTION_GENERATION=true.', { param: 'question_generation.enabled' });
    }
  }
}

/** The upstream chat request of an evaluation on one route: structured output, and token log-probabilities where the model gives them. */
function evaluationRequest(req: DecisionRequest, questions: DecisionQuestions, images: DecisionImage[], candidate: Candidate): ChatRequest {
  const logprobs = candidate.model.config.decision?.logprobs === true;
  return chatRequestSchema.parse({
    model: candidate.model.id,
    messages: evaluationMessages(req.state, questions, images),
    response_format: { type: 'json_schema', json_schema: { name: ANSWERS_SCHEMA_NAME, strict: true, schema: answersSchema(questions) } },
    temperature: 0,
    max_completion_tokens: outputCap(questions),
    ...(logprobs ? { logprobs: true, top_logprobs: TOP_LOGPROBS } : {}),
  });
}

function outputCap(questions: DecisionQuestions): number {
  return 100 + Object.values(questions).reduce((sum, q) => sum + OUTPUT_TOKENS_PER_QUESTION + (q.type === 'noul' ? 0 : 12 * (q.type === 'choice' ? Object.keys(q.criteria).length : q.criteria.length)), 0);
}

/** The whole request as encoded for the upstream, images included, must stay under 13 MiB. */
function checkUpstreamSize(request: ChatRequest): void {
  const bytes = Buffer.byteLength(JSON.stringify(request));
  if (bytes > MAX_UPSTREAM_REQUEST_BYTES) {
    throw new GatewayError('request_body_too_large', `The decision's upstream request would be ${bytes} bytes (images encoded); at most ${MAX_UPSTREAM_REQUEST_BYTES} are sent. Send fewer or smaller images, or a shorter state.`, {
      details: { bytes, max_bytes: MAX_UPSTREAM_REQUEST_BYTES },
    });
  }
}
