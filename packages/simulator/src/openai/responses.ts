import type { SimulatorContext } from '../context';
import type { Directives } from '../directives';
import { type StreamInterruptions, type StreamScript, planStream, writeEventStream } from '../event-stream';
import type { Exchange } from '../routing';
import { admitOpenAIRequest } from './admit-request';
import { type OpenAIError, modelNotFound, sendOpenAIError, simulatedFailure } from './errors';
import { isUnknownModel } from './models';
import { openaiHeaders, sendOpenAIJson, sendOpenAIJsonText } from './respond';
import { buildResponsesAnswer } from './responses-answer';
import { previousResponseNotFound, responsesErrorEvent, toolChoiceNotInTools } from './responses-errors';
import { responseIdentity, responseObject } from './responses-object';
import { responsesReasoningError } from './responses-reasoning-rules';
import { recordedAnswer, recordedStreamScript, recordingNotFound, recordingToReplay } from './responses-replay';
import { type ResponsesRequest, lastUserText, validateResponsesRequest } from './responses-request';
import { namedEventFrame, responsesStreamScript } from './responses-stream';
import { responsesUsage } from './responses-usage';

/**
 * `POST /v1/responses`: checks the request as the real API would, applies
 * the `[sim ...]` directives of the last user message, then answers with a
 * recording or a generated response, whole or as a stream of events. The
 * simulator keeps no state: nothing is stored whatever `store` says, so a
 * `previous_response_id` is always unknown.
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */
export async function handleResponses(context: SimulatorContext, exchange: Exchange): Promise<void> {
  const { res } = exchange;
  const admitted = await admitOpenAIRequest(context, exchange, { validate: validateResponsesRequest, directiveText: lastUserText, refusal: refusalFor });
  if (!admitted) return;
  const { request, directives } = admitted;

  const recording = recordingToReplay(request, directives);
  if (recording !== undefined) return replayRecording(context, exchange, request, directives, recording);
  const answer = buildResponsesAnswer(request, directives);
  const usage = responsesUsage(request, answer.chat);
  const identity = responseIdentity();
  if (request.stream !== true) return sendOpenAIJson(res, 200, responseObject(identity, request, { status: answer.status, output: answer.output, usage }));
  const script = responsesStreamScript(identity, request, answer, usage, {
    chunkSize: directives.chunkSize ?? context.options.chunkSize,
    includeObfuscation: request.stream_options?.include_obfuscation !== false,
  });
  await writeResponsesStream(context, exchange, script, directives, request.model);
}

async function replayRecording(context: SimulatorContext, exchange: Exchange, request: ResponsesRequest, directives: Directives, name: string): Promise<void> {
  const streamed = request.stream === true;
  const missing = () => sendOpenAIError(exchange.res, recordingNotFound(name, streamed, context.options.fixturesDir));
  if (!streamed) {
    const recorded = recordedAnswer(context.fixtures, name);
    return recorded ? sendOpenAIJsonText(exchange.res, recorded.status, recorded.body) : missing();
  }
  const script = recordedStreamScript(context.fixtures, name, request);
  return script ? writeResponsesStream(context, exchange, script, directives, request.model) : missing();
}

function writeResponsesStream(context: SimulatorContext, exchange: Exchange, script: StreamScript, directives: Directives, model: string): Promise<void> {
  return writeEventStream(exchange, planStream(script, streamInterruptions(script, directives, model)), {
    headers: openaiHeaders(),
    paceMs: directives.paceMs ?? context.options.paceMs,
  });
}

/** Requests the real API turns down whatever the directives say. */
function refusalFor(request: ResponsesRequest): OpenAIError | undefined {
  if (isUnknownModel(request.model)) return modelNotFound(request.model);
  if (request.previous_response_id) return previousResponseNotFound(request.previous_response_id);
  const choice = request.tool_choice;
  if (typeof choice === 'object' && choice !== null && !(request.tools ?? []).some((tool) => tool.name === choice.name)) return toolChoiceNotInTools(choice.name);
  return responsesReasoningError(request);
}

/**
 * `stream_error` sends the `error` event OpenAI sends when a server fails
 * mid-answer, numbered as the event it replaces.
 */
function streamInterruptions(script: StreamScript, directives: Directives, model: string): StreamInterruptions {
  const error = simulatedFailure({ status: 500, code: directives.code }, model);
  const sequenceNumber = script.head.length + Math.min(directives.streamErrorAfter ?? 0, script.content.length);
  const payload = { ...responsesErrorEvent(error.error), sequence_number: sequenceNumber };
  return { cutAfter: directives.cutAfter, garbageAfter: directives.garbageAfter, errorAfter: directives.streamErrorAfter, errorFrame: namedEventFrame('error', JSON.stringify(payload)) };
}
