import Anthropic from '@anthropic-ai/sdk';
import { simulatorRequests, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

const TOOLS: Anthropic.Tool[] = [
  { name: 'read_file', description: 'Read a file of the project', input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { name: 'run_tests', description: 'Run the test suite', input_schema: { type: 'object', properties: { filter: { type: 'string' } } } },
];

/** What a coding agent asks in each round; each round is a tool call and its result. */
const ASKS = ['Use read_file on src/main.ts', 'Now run_tests for the parser', 'Finally read_file on README.md'];

/**
 * A coding agent's loop through `/v1/messages` on a model that is not
 * Claude: three rounds, each a streamed turn that calls a tool (thinking
 * first where the model returns its thinking) and a streamed turn that
 * reads its result, the whole history sent back every time (thinking blocks,
 * tool calls and tool results growing), each turn accepted upstream: a
 * Gemini model, which refuses a history whose thought signatures were lost,
 * and an OpenAI reasoning model.
 */
describe.each(TEST_DATABASES)('an agent loop over the Messages API (%s)', (database) => {
  let t: TestGateway;
  let client: Anthropic;

  beforeAll(async () => {
    t = await startTestGateway({ database });
    client = new Anthropic({ apiKey: await t.createKey(), baseURL: t.url, maxRetries: 0 });
  });
  afterAll(() => t?.close());

  async function streamed(params: Anthropic.MessageCreateParamsNonStreaming): Promise<Anthropic.Message> {
    const stream = client.messages.stream(params);
    for await (const _event of stream) { /* read to the end, as an agent's UI would */ }
    return stream.finalMessage();
  }

  async function runLoop(params: Omit<Anthropic.MessageCreateParamsNonStreaming, 'messages'>) {
    const history: Anthropic.MessageParam[] = [];
    const turns: Anthropic.Message[] = [];
    for (const ask of ASKS) {
      history.push({ role: 'user', content: ask });
      const call = await streamed({ ...params, messages: history });
      turns.push(call);
      expect(call.stop_reason).toBe('tool_use');
      const toolUse = call.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
      expect(TOOLS.map((tool) => tool.name)).toContain(toolUse.name);
      history.push({ role: 'assistant', content: call.content });
      history.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: [{ type: 'text', text: `output of ${toolUse.name}` }] }] });
      const answer = await streamed({ ...params, messages: history });
      turns.push(answer);
      expect(answer.stop_reason).toBe('end_turn');
      expect(answer.content.some((b) => b.type === 'text')).toBe(true);
      history.push({ role: 'assistant', content: answer.content });
    }
    return { history, turns };
  }

  it('runs three rounds of tool use with thinking on a Gemini model, its thought signatures kept', async () => {
    await fetch(`${t.simulatorUrl}/_sim/requests`, { method: 'DELETE' });
    const { turns } = await runLoop({ model: 'gemini-2.5-flash', max_tokens: 8192, thinking: { type: 'enabled', budget_tokens: 2048 }, tools: TOOLS });
    for (const call of turns.filter((turn) => turn.stop_reason === 'tool_use')) {
      expect(call.content.some((b) => b.type === 'thinking' && b.signature.length > 0)).toBe(true);
    }
    const upstream = (await simulatorRequests(t)).requests.filter((r) => r.path === '/v1beta/models/gemini-2.5-flash:streamGenerateContent');
    expect(upstream).toHaveLength(6);
    const last = upstream.at(-1)!.body;
    const calls = last.contents.filter((c: any) => c.role === 'model').flatMap((c: any) => c.parts.filter((p: any) => p.functionCall));
    expect(calls).toHaveLength(3);
    for (const part of calls) expect(part.thoughtSignature).toEqual(expect.any(String));
    expect(last.generationConfig.thinkingConfig.thinkingBudget).toBe(2048);
    expect(JSON.stringify(last)).not.toContain('gwrs1.');
  });

  it('runs three rounds of tool use with thinking on an OpenAI reasoning model', async () => {
    await fetch(`${t.simulatorUrl}/_sim/requests`, { method: 'DELETE' });
    const { history } = await runLoop({ model: 'o4-mini', max_tokens: 8192, thinking: { type: 'adaptive' }, output_config: { effort: 'low' }, tools: TOOLS });
    expect(history).toHaveLength(ASKS.length * 4);
    const upstream = (await simulatorRequests(t)).requests.filter((r) => r.path === '/v1/chat/completions');
    expect(upstream).toHaveLength(6);
    const last = upstream.at(-1)!.body;
    expect(last).toMatchObject({ model: 'o4-mini', reasoning_effort: 'low', max_completion_tokens: 8192, stream: true });
    expect(last.messages.filter((m: any) => m.role === 'tool')).toHaveLength(3);
    expect(last.messages.filter((m: any) => m.role === 'assistant' && m.tool_calls?.length)).toHaveLength(3);
    for (const field of ['thinking', 'output_config', 'max_tokens']) expect(last).not.toHaveProperty(field);
  });
});
