import type { StreamScript } from '../event-stream';
import { splitIntoPieces } from '../text-pieces';
import { obfuscationPadding } from './chat-stream';
import type { FunctionCallOutput, MessageOutput, OutputItem, ReasoningOutput, ResponsesAnswer } from './responses-answer';
import { type ResponseIdentity, responseObject } from './responses-object';
import type { ResponsesRequest } from './responses-request';
import type { ResponsesUsage } from './responses-usage';

/**
 * A streamed Responses answer as named SSE events (`event: <type>` and a
 * `data:` payload whose `type` repeats it), in the order and with the fields
 * of the recorded api.openai.com stream
 * (test/fixtures/recorded/openai-responses/reasoning-encrypted-content.chunks.txt):
 * `response.created` and `response.in_progress` with the empty response;
 * per output item `response.output_item.added`, its parts and deltas, and
 * `response.output_item.done` with the whole item; then
 * `response.completed` (or `response.incomplete`) with the whole response.
 * Every event carries the next `sequence_number`; deltas carry an
 * `obfuscation` padding unless the client turned it off. No `[DONE]`: the
 * stream ends after its terminal event.
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */

export interface ResponsesStreamOptions {
  chunkSize: number;
  includeObfuscation: boolean;
}

export function responsesStreamScript(
  identity: ResponseIdentity,
  request: ResponsesRequest,
  answer: ResponsesAnswer,
  usage: ResponsesUsage,
  options: ResponsesStreamOptions,
): StreamScript {
  const events = new ResponseEvents(options);
  const started = responseObject(identity, request, { status: 'in_progress', output: [], usage: null });
  const head = [events.frame('response.created', { response: started }), events.frame('response.in_progress', { response: started })];
  const content = answer.output.flatMap((item, outputIndex) => itemFrames(events, item, outputIndex));
  const finished = responseObject(identity, request, { status: answer.status, output: answer.output, usage });
  const tail = [events.frame(answer.status === 'completed' ? 'response.completed' : 'response.incomplete', { response: finished })];
  return { head, content, tail };
}

/** One SSE event named after its payload's `type`, the way the Responses API writes every event. */
export function namedEventFrame(type: string, json: string): string {
  return `event: ${type}\ndata: ${json}\n\n`;
}

/** The frames of one answer, numbered in the order they are made: so each must be made in the order it is sent. */
class ResponseEvents {
  private sequence = 0;
  private deltas = 0;

  constructor(private readonly options: ResponsesStreamOptions) {}

  frame(type: string, fields: object): string {
    return namedEventFrame(type, JSON.stringify({ type, sequence_number: this.sequence++, ...fields }));
  }

  /** A delta event: the text in pieces of the chunk size, each padded as OpenAI pads them. */
  deltaFrames(type: string, fields: object, text: string, extra: object = {}): string[] {
    return splitIntoPieces(text, this.options.chunkSize).map((delta) => {
      const padding = this.options.includeObfuscation ? { obfuscation: obfuscationPadding(this.deltas++) } : {};
      return this.frame(type, { ...fields, delta, ...extra, ...padding });
    });
  }
}

function itemFrames(events: ResponseEvents, item: OutputItem, outputIndex: number): string[] {
  switch (item.type) {
    case 'reasoning':
      return reasoningFrames(events, item, outputIndex);
    case 'function_call':
      return functionCallFrames(events, item, outputIndex);
    case 'message':
      return messageFrames(events, item, outputIndex);
  }
}

function reasoningFrames(events: ResponseEvents, item: ReasoningOutput, outputIndex: number): string[] {
  const at = { item_id: item.id, output_index: outputIndex };
  const added = events.frame('response.output_item.added', { output_index: outputIndex, item: { ...item, summary: [] } });
  const parts = item.summary.flatMap((part, summaryIndex) => {
    const where = { ...at, summary_index: summaryIndex };
    return [
      events.frame('response.reasoning_summary_part.added', { ...where, part: { type: part.type, text: '' } }),
      ...events.deltaFrames('response.reasoning_summary_text.delta', where, part.text),
      events.frame('response.reasoning_summary_text.done', { ...where, text: part.text }),
      events.frame('response.reasoning_summary_part.done', { ...where, part }),
    ];
  });
  return [added, ...parts, events.frame('response.output_item.done', { output_index: outputIndex, item })];
}

function functionCallFrames(events: ResponseEvents, item: FunctionCallOutput, outputIndex: number): string[] {
  const at = { item_id: item.id, output_index: outputIndex };
  const started = { id: item.id, type: item.type, status: 'in_progress', arguments: '', call_id: item.call_id, name: item.name };
  return [
    events.frame('response.output_item.added', { output_index: outputIndex, item: started }),
    ...events.deltaFrames('response.function_call_arguments.delta', at, item.arguments),
    events.frame('response.function_call_arguments.done', { ...at, arguments: item.arguments }),
    events.frame('response.output_item.done', { output_index: outputIndex, item }),
  ];
}

function messageFrames(events: ResponseEvents, item: MessageOutput, outputIndex: number): string[] {
  const started = { id: item.id, type: item.type, status: 'in_progress', content: [], role: item.role };
  const added = events.frame('response.output_item.added', { output_index: outputIndex, item: started });
  const parts = item.content.flatMap((part, contentIndex) => {
    const where = { item_id: item.id, output_index: outputIndex, content_index: contentIndex };
    return [
      events.frame('response.content_part.added', { ...where, part: { ...part, text: '' } }),
      ...events.deltaFrames('response.output_text.delta', where, part.text, { logprobs: [] }),
      events.frame('response.output_text.done', { ...where, text: part.text, logprobs: [] }),
      events.frame('response.content_part.done', { ...where, part }),
    ];
  });
  return [added, ...parts, events.frame('response.output_item.done', { output_index: outputIndex, item })];
}
