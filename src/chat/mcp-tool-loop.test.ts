import type { McpCallMade, McpToolsForModels } from '../mcp/mcp-tools-for-models';
import type { RequestContext } from '../model-call/request-context';
import type { ChatCompletion, ChatToolCall } from '../providers/chat-types';
import { MAX_MODEL_TURNS, runMcpToolLoop, splitMcpTools } from './mcp-tool-loop';

const ctx = { requestId: 'req_first', logger: { info: () => undefined } } as unknown as RequestContext;

/** Tools that offer weather__forecast and answer every call; `turns` counts the further turns opened. */
function fakeTools() {
  const made: string[] = [];
  let turns = 0;
  const tools = {
    offer: async () => [{ type: 'function', function: { name: 'weather__forecast', parameters: { type: 'object' } } }],
    call: async (_ctx: RequestContext, name: string, args: string): Promise<McpCallMade> => {
      made.push(name);
      return { id: `mcp_${made.length}`, server_label: 'weather', name: 'forecast', arguments: args, output: 'Sunny', error: null };
    },
    openTurn: async () => ({ ...ctx, requestId: `req_turn${++turns}` }),
    refuse: async (_turn: RequestContext, err: unknown) => err,
  } as unknown as McpToolsForModels;
  return { tools, made, turns: () => turns };
}

function completion(calls: string[], usage = { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 }): ChatCompletion {
  const toolCalls: ChatToolCall[] = calls.map((name, i) => ({ id: `call_${i}`, type: 'function', function: { name, arguments: '{"city":"Paris"}' } }));
  return {
    id: 'x', object: 'chat.completion', created: 0, model: 'm', usage,
    choices: [{ index: 0, finish_reason: calls.length ? 'tool_calls' : 'stop', message: { role: 'assistant', content: calls.length ? null : 'Done', ...(calls.length ? { tool_calls: toolCalls } : {}) } }],
  };
}

const request = (tools: unknown[]) => splitMcpTools({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], tools })!;

describe('the MCP tool loop', () => {
  it('stops after the last turn it may run: the answer without the calls it asked for, finish reason length, every turn\'s tokens', async () => {
    const { tools, made, turns } = fakeTools();
    const answer = await runMcpToolLoop(ctx, request([{ type: 'mcp', server_label: 'weather' }]), tools, '/v1/chat/completions', async () => completion(['weather__forecast']));
    expect(turns()).toBe(MAX_MODEL_TURNS - 1);
    expect(made).toHaveLength(MAX_MODEL_TURNS - 1);
    expect(answer.choices[0]).toMatchObject({ finish_reason: 'length', message: { tool_calls: undefined } });
    expect(answer.choices[0].message.mcp_calls).toHaveLength(MAX_MODEL_TURNS - 1);
    expect(answer.usage).toMatchObject({ prompt_tokens: 10 * MAX_MODEL_TURNS, total_tokens: 12 * MAX_MODEL_TURNS });
  });

  it('returns a call of the client\'s own function to the client, ending the loop without running that turn\'s MCP calls', async () => {
    const { tools, made } = fakeTools();
    const own = { type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } };
    const bodies: unknown[] = [];
    const answer = await runMcpToolLoop(ctx, request([own, { type: 'mcp', server_label: 'weather' }]), tools, '/v1/chat/completions', async (_turn, body) => {
      bodies.push(body);
      return completion(['weather__forecast', 'lookup']);
    });
    expect(made).toEqual([]);
    expect(answer.choices[0].message.tool_calls!.map((c) => c.function.name)).toEqual(['lookup']);
    expect((bodies[0] as { tools: Array<{ function: { name: string } }> }).tools.map((t) => t.function.name)).toEqual(['lookup', 'weather__forecast']);
  });

  it('feeds each result back as a tool message after the assistant\'s calls, and answers when the model stops calling', async () => {
    const { tools, made } = fakeTools();
    const seen: unknown[][] = [];
    let n = 0;
    const answer = await runMcpToolLoop(ctx, request([{ type: 'mcp', server_label: 'weather' }]), tools, '/v1/chat/completions', async (_turn, body) => {
      seen.push([...(body.messages as unknown[])]);
      return completion(n++ === 0 ? ['weather__forecast'] : []);
    });
    expect(made).toEqual(['weather__forecast']);
    expect(seen[1]).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'weather__forecast', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'call_0', content: 'Sunny' },
    ]);
    expect(answer.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: 'Done' } });
  });

  it('reads a request without MCP tools as none, and refuses a malformed one by its field', () => {
    expect(splitMcpTools({ model: 'm', messages: [], tools: [{ type: 'function', function: { name: 'f' } }] })).toBeUndefined();
    expect(() => request([{ type: 'function' }, { type: 'mcp', server_label: 'weather', allowed_tools: 'forecast' }])).toThrow(expect.objectContaining({ options: expect.objectContaining({ param: 'tools[1].allowed_tools' }) }));
  });
});
