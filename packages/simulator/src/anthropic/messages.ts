import type { SimulatorContext } from '../context';
import { passDirectiveGate } from '../directive-gate';
import { type Directives, parseDirectives } from '../directives';
import { type StreamScript, planStream, writeEventStream } from '../event-stream';
import type { Exchange } from '../routing';
import { type AnthropicError, anthropicErrorEvent, badDirective, sendAnthropicError, simulatedFailure } from './errors';
import { buildMessagesAnswer } from './messages-answer';
import { recordedBody, recordedStreamScript, recordingNotFound } from './messages-replay';
import { type MessagesRequest, lastUserText, validateMessagesRequest } from './messages-request';
import { messageBody, messageIdentity } from './messages-response';
import { abandonedFrames, abandonedMessageFrames, withRestart } from './messages-restart';
import { messagesStreamScript, namedEventFrame } from './messages-stream';
import { messagesUsage } from './messages-usage';
import type { PromptCache } from './prompt-cache';
import { outputSchemaOf } from './output-format';
import { anthropicJsonBody } from './request-body';
import { anthropicHeaders, sendAnthropicJson, sendAnthropicJsonText } from './respond';
import { isThinkingOn, thinkingParameterError } from './thinking-rules';
import { thinkingHistoryError } from './thinking-history';

/**
 * `POST /v1/messages`: checks the request as the real API would (thinking
 * rules, the signed thinking of tool round trips and the schema of a
 * structured output included), applies the
 * `[sim ...]` directives of the last user text, then answers with a
 * recording or a generated message, whole or streamed (a stream may restart
 * its message first, with `restart_after`).
 * @see https://docs.anthropic.com/en/api/messages
 */
export async function handleMessages(context: SimulatorContext, promptCache: PromptCache, exchange: Exchange): Promise<void> {
  const { res } = exchange;
  const body = anthropicJsonBody(exchange.body);
  if (!body.ok) return sendAnthropicError(res, body.error);
  const validated = validateMessagesRequest(body.value);
  if (!validated.ok) return sendAnthropicError(res, validated.error);
  const { request } = validated;
  const directiveText = lastUserText(request);
  const parsed = parseDirectives(directiveText);
  if (!parsed.ok) return sendAnthropicError(res, badDirective(parsed.message));
  const { directives } = parsed;
  const refusal = refusalFor(request);
  if (refusal) return sendAnthropicError(res, refusal);

  const verdict = await passDirectiveGate(context, directives, directiveText, exchange.signal);
  if (!verdict.proceed) {
    if (verdict.failure?.reset) exchange.cutConnection();
    else if (verdict.failure) sendAnthropicError(res, simulatedFailure(verdict.failure, request.model));
    return;
  }
  if (directives.replay !== undefined) return replayRecording(context, exchange, request, directives, directives.replay);
  const answer = buildMessagesAnswer(request, directives);
  const usage = messagesUsage(request, answer, promptCache);
  const identity = messageIdentity(request.model);
  if (request.stream !== true) return sendAnthropicJson(res, 200, messageBody(identity, answer, usage));
  const chunkSize = directives.chunkSize ?? context.options.chunkSize;
  const script = messagesStreamScript(identity, answer, usage, chunkSize);
  const restartAfter = directives.restartAfter;
  const streamed = restartAfter === undefined ? script : withRestart(script, abandonedMessageFrames(request, directives, usage, chunkSize, restartAfter));
  await writeMessagesStream(context, exchange, streamed, directives, request.model);
}

/** Requests the real API turns down whatever the directives say. */
function refusalFor(request: MessagesRequest): AnthropicError | undefined {
  const output = outputSchemaOf(request);
  if (!output.ok) return output.error;
  return thinkingParameterError(request) ?? thinkingHistoryError(request, isThinkingOn(request));
}

async function replayRecording(context: SimulatorContext, exchange: Exchange, request: MessagesRequest, directives: Directives, name: string): Promise<void> {
  const streamed = request.stream === true;
  const missing = () => sendAnthropicError(exchange.res, recordingNotFound(name, streamed, context.options.fixturesDir));
  if (!streamed) {
    const body = recordedBody(context.fixtures, name);
    return body ? sendAnthropicJsonText(exchange.res, 200, body) : missing();
  }
  const script = recordedStreamScript(context.fixtures, name);
  if (!script) return missing();
  const restartAfter = directives.restartAfter;
  const played = restartAfter === undefined ? script : withRestart(script, abandonedFrames(script, restartAfter));
  return writeMessagesStream(context, exchange, played, directives, request.model);
}

/** `stream_error` sends the `error` event Anthropic sends when it is overloaded mid-answer; `code` changes its type. */
function writeMessagesStream(context: SimulatorContext, exchange: Exchange, script: StreamScript, directives: Directives, model: string): Promise<void> {
  const error = simulatedFailure({ status: 529, code: directives.code }, model);
  const interruptions = { cutAfter: directives.cutAfter, garbageAfter: directives.garbageAfter, errorAfter: directives.streamErrorAfter, errorFrame: namedEventFrame(anthropicErrorEvent(error)) };
  return writeEventStream(exchange, planStream(script, interruptions), {
    headers: anthropicHeaders(),
    paceMs: directives.paceMs ?? context.options.paceMs,
  });
}
