import { anthropicError, messageJson, namedEvents, postMessages, userTurn } from './anthropic-test-kit';
import { eventually, readRecorded, readUntilClosed, requestLog, useSimulator } from './simulator-test-kit';

const simulator = useSimulator();

const THINKING = { type: 'enabled', budget_tokens: 1024 };
const weatherTool = { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

const stream = (content: string, extra: Record<string, unknown> = {}, signal?: AbortSignal) =>
  postMessages(simulator.current, userTurn(content, { stream: true, ...extra }), signal ? { signal } : {});

describe('streamed messages', () => {
  it('names every event after its type, in the documented order, with cumulative usage at the end', async () => {
    const response = await stream('Hello there [sim words=9 chunk=20]');
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('request-id')).toMatch(/^req_/);
    const events = await namedEvents(await response.text());
    for (const { event, data } of events) expect(event).toBe(data.type);
    expect(events.map((e) => e.event)).toEqual([
      'message_start', 'ping', 'content_block_start',
      ...Array(events.length - 6).fill('content_block_delta'),
      'content_block_stop', 'message_delta', 'message_stop',
    ]);
    const [start, , blockStart] = events;
    expect(start!.data.message).toMatchObject({ id: expect.stringMatching(/^msg_01/), model: 'claude-sonnet-4-5', content: [], stop_reason: null, usage: { output_tokens: 1 } });
    expect(blockStart!.data).toEqual({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    const text = events.filter((e) => e.event === 'content_block_delta').map((e) => e.data.delta.text).join('');

    const whole = await messageJson(await postMessages(simulator.current, userTurn('Hello there [sim words=9 chunk=20]')));
    expect(text).toBe(whole.content[0].text);
    const { data: delta } = events.at(-2)!;
    expect(delta).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { input_tokens: whole.usage.input_tokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: whole.usage.output_tokens, output_tokens_details: { thinking_tokens: 0 } },
    });
  });

  it('streams thinking with its signature last, then tool use as input_json_delta fragments', async () => {
    const events = await namedEvents(await (await stream('Weather in Paris? [sim chunk=8]', { thinking: THINKING, tools: [weatherTool] })).text());
    const blockEvents = events.filter((e) => e.event?.startsWith('content_block'));
    const thinkingEvents = blockEvents.filter((e) => e.data.index === 0).map((e) => e.data.delta?.type ?? e.event);
    expect(thinkingEvents[0]).toBe('content_block_start');
    expect(thinkingEvents.slice(1, -2).every((type) => type === 'thinking_delta')).toBe(true);
    expect(thinkingEvents.slice(-2)).toEqual(['signature_delta', 'content_block_stop']);
    expect(blockEvents.find((e) => e.data.index === 0)!.data.content_block).toEqual({ type: 'thinking', thinking: '', signature: '' });

    const toolStart = blockEvents.find((e) => e.event === 'content_block_start' && e.data.index === 1)!.data;
    expect(toolStart.content_block).toEqual({ type: 'tool_use', id: expect.stringMatching(/^toolu_01/), name: 'get_weather', input: {} });
    const json = blockEvents.filter((e) => e.data.index === 1 && e.data.delta?.type === 'input_json_delta').map((e) => e.data.delta.partial_json).join('');
    expect(JSON.parse(json)).toEqual({ city: expect.any(String) });
    expect(events.at(-2)!.data.delta.stop_reason).toBe('tool_use');
  });

  it('replays a recorded stream with an event line before each recorded data line', async () => {
    const lines = readRecorded('anthropic/thinking.chunks.txt').toString('utf8').split('\n').filter(Boolean);
    const text = await (await stream('Hi [sim replay=thinking]')).text();
    expect(text).toBe(lines.map((line) => `event: ${JSON.parse(line).type}\ndata: ${line}\n\n`).join(''));
  });
});

describe('directives on the Messages API', () => {
  it('status=429 retry_after=N gives a rate_limit_error with retry-after; 529 an overloaded_error; 500 an api_error', async () => {
    const limited = await stream('Hi [sim status=429 retry_after=2]');
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(await anthropicError(limited)).toMatchObject({ status: 429, body: { type: 'error', error: { type: 'rate_limit_error' }, request_id: expect.any(String) } });
    expect(await anthropicError(await stream('Hi [sim status=529]'))).toMatchObject({ status: 529, body: { error: { type: 'overloaded_error', message: 'Overloaded' } } });
    expect(await anthropicError(await stream('Hi [sim status=500]'))).toMatchObject({ status: 500, body: { error: { type: 'api_error' } } });
    expect(await anthropicError(await stream('Hi [sim status=400 code=billing_error]'))).toMatchObject({ status: 400, body: { error: { type: 'billing_error' } } });
  });

  it('fail_times=1 fails the first sighting of a prompt only', async () => {
    const prompt = `Retry me ${Date.now()} [sim fail_times=1 status=529]`;
    expect((await postMessages(simulator.current, userTurn(prompt))).status).toBe(529);
    expect((await postMessages(simulator.current, userTurn(prompt))).status).toBe(200);
  });

  it('rejects an unknown directive in Anthropic\'s envelope', async () => {
    expect(await anthropicError(await stream('Hi [sim statsu=500]'))).toMatchObject({ status: 400, body: { error: { type: 'invalid_request_error', message: expect.stringContaining("Unknown simulator directive 'statsu'") } } });
  });

  it('stream_error=N sends an overloaded error event after N content events, then ends', async () => {
    const events = await namedEvents(await (await stream('Hi [sim stream_error=2 words=30]')).text());
    expect(events.map((e) => e.event)).toEqual(['message_start', 'ping', 'content_block_start', 'content_block_delta', 'error']);
    expect(events.at(-1)!.data).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
  });

  it('cut_after=N drops the connection after N content events: no message_delta, no message_stop', async () => {
    const before = (await requestLog(simulator.current)).aborted;
    const { text, failed } = await readUntilClosed(await stream('Hi [sim cut_after=3 words=50]'));
    expect(failed).toBe(true);
    expect((await namedEvents(text)).map((e) => e.event)).toEqual(['message_start', 'ping', 'content_block_start', 'content_block_delta', 'content_block_delta']);
    expect((await requestLog(simulator.current)).aborted).toBe(before);
  });

  it('restart_after=N abandons a first message after N content events mid tool input, then streams the whole real answer', async () => {
    const events = await namedEvents(await (await stream('Weather in Paris? [sim restart_after=2 chunk=50]', { tools: [weatherTool] })).text());
    const starts = events.flatMap((e, at) => (e.event === 'message_start' ? [at] : []));
    expect(starts).toEqual([0, 4]);
    const abandoned = events.slice(0, 4);
    const real = events.slice(4);
    expect(abandoned.map((e) => e.event)).toEqual(['message_start', 'ping', 'content_block_start', 'content_block_delta']);
    expect(abandoned[3]!.data.delta.type).toBe('input_json_delta');
    // Cut mid-JSON although the chunk size would have sent the whole input at once.
    expect(() => JSON.parse(abandoned[3]!.data.delta.partial_json)).toThrow();
    expect(real[0]!.data.message.id).not.toBe(abandoned[0]!.data.message.id);
    expect(real[2]!.data.content_block.id).not.toBe(abandoned[2]!.data.content_block.id);
    expect(real.map((e) => e.event).slice(-4)).toEqual(['content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    const json = real.filter((e) => e.data.delta?.type === 'input_json_delta').map((e) => e.data.delta.partial_json).join('');
    expect(JSON.parse(json)).toEqual({ city: expect.any(String) });
    // The usage is the real answer's: the same as the whole answer to the same request.
    const whole = await messageJson(await postMessages(simulator.current, userTurn('Weather in Paris? [sim restart_after=2 chunk=50]', { tools: [weatherTool] })));
    expect(real.at(-2)!.data.usage).toMatchObject({ input_tokens: whole.usage.input_tokens, output_tokens: whole.usage.output_tokens });
    expect(abandoned[0]!.data.message.usage).toMatchObject({ input_tokens: whole.usage.input_tokens, output_tokens: 1 });
  });

  it('restart_after=N on a text answer and on a recording: the abandoned text, then the whole answer again', async () => {
    const events = await namedEvents(await (await stream('Hi [sim restart_after=3 words=30 chunk=10]')).text());
    expect(events.filter((e) => e.event === 'message_start')).toHaveLength(2);
    const texts = events.filter((e) => e.event === 'content_block_delta').map((e) => e.data.delta.text as string);
    const whole = texts.slice(2).join('');
    expect(texts.slice(0, 2).join('')).toBe(whole.slice(0, 20));

    const replayed = await namedEvents(await (await stream('Hi [sim replay=text restart_after=2]')).text());
    const lines = readRecorded('anthropic/text.chunks.txt').toString('utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
    expect(replayed.map((e) => e.data)).toEqual([...lines.slice(0, 3), ...lines]);
  });

  it('pace spaces the events and chunk sets the characters per delta', async () => {
    const started = Date.now();
    const events = await namedEvents(await (await stream('Hi [sim pace=15 words=6 chunk=10]')).text());
    const pieces = events.filter((e) => e.event === 'content_block_delta').map((e) => e.data.delta.text as string);
    expect(pieces.slice(0, -1).every((piece) => piece.length === 10)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual((events.length - 1) * 15 - 5);
  });

  it('hang holds the request until the client leaves, and the log counts the abort', async () => {
    const before = (await requestLog(simulator.current)).aborted;
    const abort = new AbortController();
    const pending = stream('Hi [sim hang]', {}, abort.signal);
    setTimeout(() => abort.abort(), 100);
    await expect(pending).rejects.toThrow();
    await eventually(async () => (await requestLog(simulator.current)).aborted === before + 1);
  });
});
