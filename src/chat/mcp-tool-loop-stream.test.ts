import type { McpCallMade, McpToolsForModels } from '../mcp/mcp-tools-for-models';
import type { RequestContext } from '../model-call/request-context';
import type { ChatCompletionChunk } from '../providers/chat-types';
import { MAX_MODEL_TURNS, splitMcpTools } from './mcp-tool-loop';
import { streamMcpToolLoop } from './mcp-tool-loop-stream';

const ctx = { requestId: 'req_first', logger: { info: () => undefined } } as unknown as RequestContext;

function fakeTools() {
  let turns = 0;
  const tools = {
    offer: async () => [{ type: 'function', function: { name: 'weather__forecast', parameters: { type: 'object' } } }],
    call: async (_ctx: RequestContext, _name: string, args: string): Promise<McpCallMade> => ({ id: `mcp_${turns}`, server_label: 'weather', name: 'forecast', arguments: args, output: 'Sunny', error: null }),
    openTurn: async () => ({ ...ctx, requestId: `req_turn${++turns}` }),
    refuse: async (_turn: RequestContext, err: unknown) => err,
  } as unknown as McpToolsForModels;
  return { tools, turns: () => turns };
}

const chunk = (turn: number, delta: Record<string, unknown>, finish: string | null = null): ChatCompletionChunk =>
  ({ id: `chatcmpl-${turn}`, object: 'chat.completion.chunk', created: turn, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] });

/** A turn as the chat service streams it: role, text, a tool call in pieces when `call`, its finish and its usage chunk. */
async function* turnStream(turn: number, call: boolean): AsyncGenerator<ChatCompletionChunk> {
  yield chunk(turn, { role: 'assistant', content: '' });
  yield chunk(turn, { reasoning_details: [{ type: 'reasoning.encrypted', data: `sig${turn}` }] });
  yield chunk(turn, { content: `turn ${turn} ` });
  if (call) {
    yield chunk(turn, { tool_calls: [{ index: 0, id: `call_${turn}`, type: 'function', function: { name: 'weather__forecast', arguments: '{"city":' } }] });
    yield chunk(turn, { tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] });
  }
  yield chunk(turn, {}, call ? 'tool_calls' : 'stop');
  yield { id: `chatcmpl-${turn}`, object: 'chat.completion.chunk', created: turn, model: 'm', choices: [], usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } };
}

const request = (extra: Record<string, unknown> = {}) => splitMcpTools({ model: 'm', stream: true, messages: [{ role: 'user', content: 'Hi' }], tools: [{ type: 'mcp', server_label: 'weather' }], ...extra })!;

async function collect(stream: AsyncGenerator<ChatCompletionChunk>): Promise<ChatCompletionChunk[]> {
  const all: ChatCompletionChunk[] = [];
  for await (const c of stream) all.push(c);
  return all;
}

describe('the MCP tool loop, streamed', () => {
  it('stops after the last turn it may run: its calls never sent, finish reason length, one usage chunk with every turn\'s tokens', async () => {
    const { tools, turns } = fakeTools();
    let n = 0;
    const chunks = await collect(await streamMcpToolLoop(ctx, request({ stream_options: { include_usage: true } }), tools, '/v1/chat/completions', async () => turnStream(++n, true)));
    expect(turns()).toBe(MAX_MODEL_TURNS - 1);
    expect(new Set(chunks.map((c) => c.id))).toEqual(new Set(['chatcmpl-1']));
    const deltas = chunks.flatMap((c) => c.choices.map((choice) => choice.delta));
    expect(deltas.filter((d) => d.tool_calls)).toEqual([]);
    expect(deltas.filter((d) => d.role)).toHaveLength(1);
    expect(deltas.flatMap((d) => (d.mcp_calls as unknown[]) ?? [])).toHaveLength(MAX_MODEL_TURNS - 1);
    expect(deltas.map((d) => d.content).filter(Boolean).join('')).toBe(Array.from({ length: MAX_MODEL_TURNS }, (_, i) => `turn ${i + 1} `).join(''));
    const finishes = chunks.flatMap((c) => c.choices.filter((choice) => choice.finish_reason));
    expect(finishes).toEqual([{ index: 0, delta: { reasoning_details: [{ type: 'reasoning.encrypted', data: `sig${MAX_MODEL_TURNS}` }] }, finish_reason: 'length' }]);
    expect(chunks.filter((c) => c.usage)).toEqual([expect.objectContaining({ choices: [], usage: { prompt_tokens: 10 * MAX_MODEL_TURNS, completion_tokens: 2 * MAX_MODEL_TURNS, total_tokens: 12 * MAX_MODEL_TURNS } })]);
  });

  it('hands each turn the calls and results before, with the turn\'s own signed reasoning, and sends no usage the client did not ask for', async () => {
    const { tools } = fakeTools();
    const bodies: Array<{ messages: unknown[]; stream_options: unknown }> = [];
    let n = 0;
    const chunks = await collect(await streamMcpToolLoop(ctx, request(), tools, '/v1/chat/completions', async (_turn, body) => {
      bodies.push(JSON.parse(JSON.stringify(body)));
      return turnStream(++n, n === 1);
    }));
    expect(bodies[0].stream_options).toEqual({ include_usage: true });
    expect(bodies[1].messages.slice(1)).toEqual([
      { role: 'assistant', content: 'turn 1 ', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather__forecast', arguments: '{"city":"Oslo"}' } }], reasoning_details: [{ type: 'reasoning.encrypted', data: 'sig1' }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'Sunny' },
    ]);
    expect(chunks.filter((c) => c.usage)).toEqual([]);
    expect(chunks.flatMap((c) => c.choices.filter((choice) => choice.finish_reason).map((choice) => choice.finish_reason))).toEqual(['stop']);
  });
});
