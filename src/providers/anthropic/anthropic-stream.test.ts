import type { ChatStreamEvent } from '../chat-adapter';
import type { ChatDelta } from '../chat-types';
import { UpstreamError } from '../upstream-error';
import { AnthropicStreamConverter, parseAnthropicStreamEvent } from './anthropic-stream';

/**
 * Hand-written streams in the shape of the recordings (one `data:` line per
 * event, named after its type), for what no recording shows: an upstream
 * that restarts its message mid-stream, and tool input that never becomes JSON.
 */

const usageAtStart = (input: number) => ({
  input_tokens: input, cache_creation_input_tokens: 0, cache_read_input_tokens: 0,
  cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 }, output_tokens: 1, service_tier: 'standard',
});

const messageStart = (id: string, input: number) => ({
  type: 'message_start',
  message: { model: 'claude-sonnet-4-5-20250929', id, type: 'message', role: 'assistant', content: [], stop_reason: null, stop_sequence: null, usage: usageAtStart(input) },
});
const textStart = (index: number) => ({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
const text = (index: number, piece: string) => ({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
const toolStart = (index: number, id: string, name = 'get_weather') => ({ type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input: {} } });
const json = (index: number, piece: string) => ({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
const stop = (index: number) => ({ type: 'content_block_stop', index });
const messageDelta = (stopReason: string, input: number, output: number) => ({
  type: 'message_delta',
  delta: { stop_reason: stopReason, stop_sequence: null },
  usage: { input_tokens: input, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: output },
});
const messageStop = { type: 'message_stop' };
const ping = { type: 'ping' };

/** Runs the events through the parser and the converter, as the adapter does with the SSE events it reads. */
function convert(events: object[], answerTool?: string): ChatStreamEvent[] {
  const converter = new AnthropicStreamConverter(1_700_000_000, answerTool);
  const out: ChatStreamEvent[] = [];
  for (const payload of events) {
    const event = parseAnthropicStreamEvent({ event: (payload as { type: string }).type, data: JSON.stringify(payload) });
    if (event) out.push(...converter.accept(event));
  }
  return out;
}

/** Each event in short: a chunk as its delta and finish reason, a usage event as its figures. */
function summary(events: ChatStreamEvent[]): unknown[] {
  return events.map((e) =>
    e.type === 'chunk'
      ? ['chunk', e.chunk.choices[0]!.delta, e.chunk.choices[0]!.finish_reason]
      : [e.partial ? 'partial usage' : 'usage', { input: e.usage.inputTokens, output: e.usage.outputTokens }],
  );
}

/** The tool calls a client assembles from the deltas, as the OpenAI SDK does: by index, arguments concatenated. */
function assembledToolCalls(events: ChatStreamEvent[]): { id?: string; name?: string; arguments: string }[] {
  const calls: { id?: string; name?: string; arguments: string }[] = [];
  for (const e of events) {
    if (e.type !== 'chunk') continue;
    for (const delta of e.chunk.choices[0]!.delta.tool_calls ?? []) {
      const call = (calls[delta.index] ??= { arguments: '' });
      if (delta.id) call.id = delta.id;
      if (delta.function?.name) call.name = delta.function.name;
      call.arguments += delta.function?.arguments ?? '';
    }
  }
  return calls;
}

const contentOf = (events: ChatStreamEvent[]) => events.map((e) => (e.type === 'chunk' ? e.chunk.choices[0]!.delta.content ?? '' : '')).join('');

const toolCallDelta = (index: number, id: string, args: string): ChatDelta => ({
  tool_calls: [{ index, id, type: 'function', function: { name: 'get_weather', arguments: args } }],
});

describe('AnthropicStreamConverter', () => {
  it('streams the forced answer tool\'s input pieces as content, ending with finish_reason stop and no tool call', () => {
    const events = convert([
      messageStart('msg_1', 40), ping,
      toolStart(0, 'toolu_1', 'forecast'), json(0, ''), json(0, '{"city": '), json(0, '"Paris"}'), stop(0),
      messageDelta('tool_use', 40, 12), messageStop,
    ], 'forecast');
    expect(summary(events.filter((e) => e.type === 'chunk'))).toEqual([
      ['chunk', { role: 'assistant', content: '' }, null],
      ['chunk', { content: '{"city": ' }, null],
      ['chunk', { content: '"Paris"}' }, null],
      ['chunk', {}, 'stop'],
    ]);
    expect(JSON.parse(contentOf(events))).toEqual({ city: 'Paris' });
    expect(assembledToolCalls(events)).toEqual([]);
  });

  it('gives an answer tool without input the empty object, and leaves out text beside it', () => {
    const events = convert([messageStart('msg_1', 40), textStart(0), text(0, 'Sure.'), stop(0), toolStart(1, 'toolu_1', 'json_object'), json(1, ''), stop(1), messageDelta('tool_use', 40, 3), messageStop], 'json_object');
    expect(contentOf(events)).toBe('{}');
  });

  it('sends a tool call whole at the end of its message: one delta with id, name and the buffered arguments', () => {
    const events = convert([
      messageStart('msg_1', 40), ping,
      toolStart(0, 'toolu_1'), json(0, ''), json(0, '{"city": '), json(0, '"Paris"}'), stop(0),
      toolStart(1, 'toolu_2'), json(1, ''), stop(1),
      messageDelta('tool_use', 40, 22), messageStop,
    ]);
    expect(summary(events)).toEqual([
      ['partial usage', { input: 40, output: 1 }],
      ['chunk', { role: 'assistant', content: '' }, null],
      ['chunk', toolCallDelta(0, 'toolu_1', '{"city": "Paris"}'), null],
      // A tool without parameters streams one empty piece: its arguments are the empty object.
      ['chunk', toolCallDelta(1, 'toolu_2', '{}'), null],
      ['chunk', {}, 'tool_calls'],
      ['usage', { input: 40, output: 22 }],
    ]);
  });

  it('a restart mid tool call: the half call of the abandoned message never reaches the client, the restarted one does', () => {
    const events = convert([
      messageStart('msg_abandoned', 40), ping,
      textStart(0), text(0, 'Let me check'), stop(0),
      toolStart(1, 'toolu_abandoned'), json(1, '{"city": "Par'),
      // The restarted message goes straight to its tool call, at block 0: the abandoned block 1 is gone with its message.
      messageStart('msg_restarted', 40), ping,
      toolStart(0, 'toolu_restarted'), json(0, '{"city"'), json(0, ': "Paris"}'), stop(0),
      messageDelta('tool_use', 40, 25), messageStop,
    ]);
    expect(summary(events)).toEqual([
      ['partial usage', { input: 40, output: 1 }],
      ['chunk', { role: 'assistant', content: '' }, null],
      ['chunk', { content: 'Let me check' }, null],
      // The restarted message reports its own prompt side again; the client already has its role chunk.
      ['partial usage', { input: 40, output: 1 }],
      ['chunk', toolCallDelta(0, 'toolu_restarted', '{"city": "Paris"}'), null],
      ['chunk', {}, 'tool_calls'],
      ['usage', { input: 40, output: 25 }],
    ]);
    const calls = assembledToolCalls(events);
    expect(calls).toEqual([{ id: 'toolu_restarted', name: 'get_weather', arguments: '{"city": "Paris"}' }]);
    expect(JSON.parse(calls[0]!.arguments)).toEqual({ city: 'Paris' });
    // Text cannot be taken back: what the abandoned message streamed stays.
    expect(contentOf(events)).toBe('Let me check');
  });

  it('a restart mid text after a completed tool call: the completed call of the abandoned message is dropped too', () => {
    const events = convert([
      messageStart('msg_abandoned', 70), ping,
      toolStart(0, 'toolu_abandoned'), json(0, '{"city": "Oslo"}'), stop(0),
      textStart(1), text(1, 'Sure, here'),
      messageStart('msg_restarted', 30), ping,
      textStart(0), text(0, 'Hello'), text(0, ' there'), stop(0),
      messageDelta('end_turn', 30, 2), messageStop,
    ]);
    expect(assembledToolCalls(events)).toEqual([]);
    expect(contentOf(events)).toBe('Sure, hereHello there');
    expect(summary(events).slice(-2)).toEqual([['chunk', {}, 'stop'], ['usage', { input: 30, output: 2 }]]);
  });

  it('after a restart, the usage is the restarted message\'s alone, prompt and output, never a sum', () => {
    const events = convert([
      messageStart('msg_abandoned', 900), textStart(0), text(0, 'abc'),
      { ...messageStart('msg_restarted', 0), message: { ...messageStart('msg_restarted', 0).message, usage: { ...usageAtStart(12), cache_read_input_tokens: 100 } } },
      textStart(0), text(0, 'x'), stop(0),
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 7 } }, messageStop,
    ]);
    const partial = events.filter((e) => e.type === 'usage' && e.partial);
    expect(partial).toHaveLength(2);
    const final = events.filter((e) => e.type === 'usage' && !e.partial);
    expect(final).toHaveLength(1);
    expect(final[0]).toMatchObject({ usage: { inputTokens: 112, outputTokens: 7, cacheReadTokens: 100 } });
    // Every chunk after the restart carries the restarted message's id.
    const ids = events.flatMap((e) => (e.type === 'chunk' ? [e.chunk.id] : []));
    expect(ids.slice(-2)).toEqual(['msg_restarted', 'msg_restarted']);
  });

  it('tool calls are numbered from 0 in each message, so the restarted message\'s calls are 0, 1, ...', () => {
    const events = convert([
      messageStart('msg_abandoned', 10), toolStart(0, 'toolu_a'), json(0, '{}'), stop(0), toolStart(1, 'toolu_b'),
      messageStart('msg_restarted', 10),
      toolStart(0, 'toolu_c'), json(0, '{"city":"Rome"}'), stop(0), toolStart(1, 'toolu_d'), json(1, '{"city":"Lima"}'), stop(1),
      messageDelta('tool_use', 10, 9), messageStop,
    ]);
    expect(assembledToolCalls(events)).toEqual([
      { id: 'toolu_c', name: 'get_weather', arguments: '{"city":"Rome"}' },
      { id: 'toolu_d', name: 'get_weather', arguments: '{"city":"Lima"}' },
    ]);
  });

  it('tool input that is not JSON at content_block_stop is a retryable 502 naming Anthropic and the block', () => {
    const err = catchError(() => convert([messageStart('msg_1', 10), toolStart(2, 'toolu_bad', 'lookup'), json(2, '{"q": "x"'), stop(2)]));
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err.details).toMatchObject({ status: 502, retryable: true });
    expect(err.message).toMatch(/Anthropic Messages shape/);
    expect(err.message).toContain('tool_use block 2 (lookup, toolu_bad) is not JSON: {"q": "x"');
  });

  it('a tool block that never stops before its message ends is a 502 too, and nothing of it went out', () => {
    const sent: ChatStreamEvent[] = [];
    const converter = new AnthropicStreamConverter(0);
    const err = catchError(() => {
      for (const payload of [messageStart('msg_1', 10), toolStart(0, 'toolu_open'), json(0, '{"city": "Pa'), messageDelta('tool_use', 10, 5)]) {
        sent.push(...converter.accept(parseAnthropicStreamEvent({ event: undefined, data: JSON.stringify(payload) })!));
      }
    });
    expect(err.details).toMatchObject({ status: 502 });
    expect(err.message).toContain('tool_use block 0 (get_weather, toolu_open) ended without content_block_stop');
    expect(assembledToolCalls(sent)).toEqual([]);
  });

  it('is complete only at message_stop, and a restart after it opens the answer again', () => {
    const converter = new AnthropicStreamConverter(0);
    const feed = (payload: object) => converter.accept(parseAnthropicStreamEvent({ event: undefined, data: JSON.stringify(payload) })!);
    feed(messageStart('msg_1', 10));
    feed(messageDelta('end_turn', 10, 1));
    expect(converter.complete).toBe(false);
    feed(messageStop);
    expect(converter.complete).toBe(true);
    feed(messageStart('msg_2', 10));
    expect(converter.complete).toBe(false);
  });
});

function catchError(run: () => unknown): UpstreamError {
  try {
    run();
  } catch (err) {
    return err as UpstreamError;
  }
  throw new Error('expected an error');
}
