import { ANTHROPIC_HEADERS, MODEL, anthropicError, messageJson, postMessages, userTurn } from './anthropic-test-kit';
import { useSimulator } from './simulator-test-kit';

const simulator = useSimulator();

const count = (body: unknown, headers: Record<string, string> = ANTHROPIC_HEADERS) =>
  fetch(`${simulator.current.url}/v1/messages/count_tokens`, { method: 'POST', headers, body: JSON.stringify(body) });

describe('POST /v1/messages/count_tokens', () => {
  it('counts the prompt as a message answer\'s usage does, without max_tokens', async () => {
    const prompt = { system: 'Be brief.', tools: [{ name: 'f', input_schema: { type: 'object' } }], messages: [{ role: 'user', content: 'How long is this prompt?' }] };
    const counted = await count({ model: MODEL, ...prompt });
    expect(counted.status).toBe(200);
    const { input_tokens } = (await counted.json()) as { input_tokens: number };
    const answered = await messageJson(await postMessages(simulator.current, userTurn('How long is this prompt?', { system: prompt.system, tools: prompt.tools, tool_choice: { type: 'none' } })));
    expect(input_tokens).toBe(answered.usage.input_tokens);
    expect(input_tokens).toBeGreaterThan(0);
  });

  it('checks the model and messages, and the headers, as the real API does', async () => {
    expect(await anthropicError(await count({ messages: [{ role: 'user', content: 'Hi' }] }))).toMatchObject({ status: 400, body: { error: { message: 'model: Field required' } } });
    expect(await anthropicError(await count({ model: MODEL, messages: [{ role: 'assistant', content: 'Hi' }] }))).toMatchObject({ status: 400 });
    const { 'x-api-key': _key, ...withoutKey } = ANTHROPIC_HEADERS;
    expect((await anthropicError(await count({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }, withoutKey))).status).toBe(401);
  });
});
