import type { SimulatorContext } from '../context';
import type { Directives } from '../directives';
import { type StreamInterruptions, type StreamScript, planStream, writeEventStream } from '../event-stream';
import type { Exchange } from '../routing';
import { buildChatAnswer } from './chat-answer';
import { answerLogprobs, logprobsParameterError } from './chat-logprobs';
import { recordedBody, recordedStreamScript, recordingNotFound, recordingToReplay } from './chat-replay';
import { type ChatRequest, lastUserText, validateChatRequest } from './chat-request';
import { chatCompletionBody, completionIdentity } from './chat-response';
import { chatStreamScript, sseDataFrame } from './chat-stream';
import { toolChoiceError } from './chat-tools';
import { chatUsage } from './chat-usage';
import { admitOpenAIRequest } from './admit-request';
import { type OpenAIError, modelNotFound, openaiErrorEnvelope, sendOpenAIError, simulatedFailure } from './errors';
import { isUnknownModel } from './models';
import { reasoningParameterError } from './reasoning-models';
import { openaiHeaders, sendOpenAIJson, sendOpenAIJsonText } from './respond';

/**
 * `POST /v1/chat/completions`: checks the request as the real API would,
 * applies the `[sim ...]` directives of the last user message, then answers
 * with a recording or a generated completion, whole or streamed.
 * @see https://platform.openai.com/docs/api-reference/chat
 */
export async function handleChatCompletions(context: SimulatorContext, exchange: Exchange): Promise<void> {
  const { res } = exchange;
  const admitted = await admitOpenAIRequest(context, exchange, { validate: validateChatRequest, directiveText: lastUserText, refusal: refusalFor });
  if (!admitted) return;
  const { request, directives } = admitted;

  const recording = recordingToReplay(request, directives);
  if (recording !== undefined) return replayRecording(context, exchange, request, directives, recording);
  const answer = buildChatAnswer(request, directives);
  const identity = completionIdentity(request);
  const usage = chatUsage(request, answer, directives);
  const logprobs = answerLogprobs(request, answer, directives);
  if (request.stream !== true) return sendOpenAIJson(res, 200, chatCompletionBody(identity, answer, usage, logprobs));
  const script = chatStreamScript(identity, answer, usage, {
    logprobs,
    includeUsage: request.stream_options?.include_usage === true,
    includeObfuscation: request.stream_options?.include_obfuscation !== false,
    chunkSize: directives.chunkSize ?? context.options.chunkSize,
  });
  await writeChatStream(context, exchange, script, directives, request.model);
}

async function replayRecording(
  context: SimulatorContext,
  exchange: Exchange,
  request: ChatRequest,
  directives: Directives,
  name: string,
): Promise<void> {
  const streamed = request.stream === true;
  const missing = () => sendOpenAIError(exchange.res, recordingNotFound(name, streamed, context.options.fixturesDir));
  if (!streamed) {
    const body = recordedBody(context.fixtures, name);
    return body ? sendOpenAIJsonText(exchange.res, 200, body) : missing();
  }
  const script = recordedStreamScript(context.fixtures, name);
  return script ? writeChatStream(context, exchange, script, directives, request.model) : missing();
}

function writeChatStream(context: SimulatorContext, exchange: Exchange, script: StreamScript, directives: Directives, model: string): Promise<void> {
  return writeEventStream(exchange, planStream(script, streamInterruptions(directives, model)), {
    headers: openaiHeaders(),
    paceMs: directives.paceMs ?? context.options.paceMs,
  });
}

/** Requests the real API turns down whatever the directives say: a missing model, an o-series misuse, a stray tool name, a misused `top_logprobs`. */
function refusalFor(request: ChatRequest): OpenAIError | undefined {
  if (isUnknownModel(request.model)) return modelNotFound(request.model);
  return reasoningParameterError(request) ?? toolChoiceError(request) ?? logprobsParameterError(request);
}

/** `stream_error` sends the in-stream error OpenAI sends when a server fails mid-answer. */
function streamInterruptions(directives: Directives, model: string): StreamInterruptions {
  const error = simulatedFailure({ status: 500, code: directives.code }, model);
  return { cutAfter: directives.cutAfter, garbageAfter: directives.garbageAfter, errorAfter: directives.streamErrorAfter, errorFrame: sseDataFrame(openaiErrorEnvelope(error)) };
}
