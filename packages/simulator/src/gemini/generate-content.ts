import type { SimulatorContext } from '../context';
import { type Directives, parseDirectives } from '../directives';
import { type StreamScript, planStream, writeEventStream } from '../event-stream';
import { isUnknownModel } from '../openai/models';
import { sseDataFrame } from '../openai/chat-stream';
import type { Exchange } from '../routing';
import { buildGeminiAnswers } from './answer';
import { passGeminiDirectiveGate } from './directive-gate';
import { type GeminiError, badDirective, geminiErrorEnvelope, modelNotFound, sendGeminiError, simulatedFailure, streamNeedsSse } from './errors';
import { type GenerateContentRequest, lastUserText, validateGenerateContentRequest } from './generate-request';
import { recordedBody, recordedStreamScript, recordingNotFound } from './replay';
import { generateContentBody, responseIdentity } from './response';
import { geminiJsonBody } from './request-body';
import { sendGeminiJson, sendGeminiJsonText } from './respond';
import { geminiStreamScript } from './stream';
import { isThinking, thinkingBudgetError } from './thinking-models';
import { thoughtSignatureError } from './thought-signature';
import { withUnreadableChunk } from './unreadable-chunk';
import { countPromptTokens } from './usage';

export type GenerateMethod = 'generateContent' | 'streamGenerateContent';

/**
 * `POST /v1beta/models/{model}:generateContent` and
 * `:streamGenerateContent?alt=sse`: checks the request as the Gemini API
 * would (its shape, the model's thinking budget, the thought signatures of
 * the current turn), applies the `[sim ...]` directives of the last user
 * text, then answers with a recording or a generated response.
 * @see https://ai.google.dev/api/generate-content
 */
export async function handleGenerateContent(context: SimulatorContext, exchange: Exchange, model: string, method: GenerateMethod): Promise<void> {
  const { res } = exchange;
  const streamed = method === 'streamGenerateContent';
  if (streamed && exchange.query.get('alt') !== 'sse') return sendGeminiError(res, streamNeedsSse());
  const body = geminiJsonBody(exchange.body, context.options.maxBodyBytes);
  if (!body.ok) return sendGeminiError(res, body.error);
  const validated = validateGenerateContentRequest(body.value);
  if (!validated.ok) return sendGeminiError(res, validated.error);
  const { request } = validated;
  const directiveText = lastUserText(request);
  const parsed = parseDirectives(directiveText);
  if (!parsed.ok) return sendGeminiError(res, badDirective(parsed.message));
  const { directives } = parsed;
  const refusal = refusalFor(model, method, request);
  if (refusal) return sendGeminiError(res, refusal);

  if (!(await passGeminiDirectiveGate(context, exchange, directives, directiveText, model))) return;

  if (directives.replay !== undefined) return replayRecording(context, exchange, streamed, directives, model);
  const answers = buildGeminiAnswers(model, request, directives);
  const identity = responseIdentity(model);
  const prompt = countPromptTokens(model, request);
  if (!streamed) return sendGeminiJson(res, 200, generateContentBody(identity, answers, prompt));
  const script = geminiStreamScript(identity, answers, prompt, { chunkSize: directives.chunkSize ?? context.options.chunkSize, streamArgs: directives.streamArgs ?? false });
  await writeGeminiStream(context, exchange, script, directives, model);
}

/** Requests the real API turns down whatever the directives say. */
function refusalFor(model: string, method: GenerateMethod, request: GenerateContentRequest): GeminiError | undefined {
  if (isUnknownModel(model)) return modelNotFound(model, method);
  const thinkingConfig = request.generationConfig?.thinkingConfig;
  return thinkingBudgetError(model, thinkingConfig) ?? (isThinking(model, thinkingConfig) ? thoughtSignatureError(request) : undefined);
}

async function replayRecording(context: SimulatorContext, exchange: Exchange, streamed: boolean, directives: Directives, model: string): Promise<void> {
  const name = directives.replay ?? '';
  const missing = () => sendGeminiError(exchange.res, recordingNotFound(name, streamed, context.options.fixturesDir));
  if (!streamed) {
    const body = recordedBody(context.fixtures, name);
    return body ? sendGeminiJsonText(exchange.res, 200, body) : missing();
  }
  const script = recordedStreamScript(context.fixtures, name);
  return script ? writeGeminiStream(context, exchange, script, directives, model) : missing();
}

/**
 * `stream_error` sends the error event Gemini sends when a server fails
 * mid-answer; `bad_chunk` slips in a chunk no Gemini answer has, in a
 * generated or a replayed stream alike.
 */
function writeGeminiStream(context: SimulatorContext, exchange: Exchange, script: StreamScript, directives: Directives, model: string): Promise<void> {
  const error = simulatedFailure({ status: 500, code: directives.code }, model);
  const interruptions = { cutAfter: directives.cutAfter, garbageAfter: directives.garbageAfter, errorAfter: directives.streamErrorAfter, errorFrame: sseDataFrame(geminiErrorEnvelope(error)) };
  const sent = directives.badChunk ? withUnreadableChunk(script) : script;
  return writeEventStream(exchange, planStream(sent, interruptions), { headers: {}, paceMs: directives.paceMs ?? context.options.paceMs });
}
