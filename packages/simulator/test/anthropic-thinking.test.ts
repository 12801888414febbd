import { REDACTED_THINKING_TRIGGER } from '../src/anthropic/messages-answer';
import { anthropicError, messageJson, postMessages, userTurn } from './anthropic-test-kit';
import { useSimulator } from './simulator-test-kit';

const simulator = useSimulator();

const THINKING = { type: 'enabled', budget_tokens: 1024 };
const weatherTool = { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

const send = (body: unknown) => postMessages(simulator.current, body);
const refusal = async (body: unknown) => {
  const { status, body: error } = await anthropicError(await send(body));
  expect(status).toBe(400);
  expect(error.error.type).toBe('invalid_request_error');
  return error.error.message;
};

describe('thinking parameters', () => {
  it.each([
    ['a budget below 1024', { thinking: { type: 'enabled', budget_tokens: 1000 } }, 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024'],
    ['a budget not below max_tokens', { max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 2048 } }, /^`max_tokens` must be greater than `thinking.budget_tokens`\./],
    ['no budget', { thinking: { type: 'enabled' } }, 'thinking.enabled.budget_tokens: Field required'],
    ['a temperature other than 1', { thinking: THINKING, temperature: 0.7 }, /^`temperature` may only be set to 1 when thinking is enabled\./],
    ['top_k', { thinking: THINKING, top_k: 5 }, /^`top_k` must be unset when thinking is enabled\./],
    ['top_p below 0.95', { thinking: THINKING, top_p: 0.9 }, /^`top_p` must be greater than or equal to 0.95 or unset when thinking is enabled\./],
    ['forced tool use (any)', { thinking: THINKING, tools: [weatherTool], tool_choice: { type: 'any' } }, 'Thinking may not be enabled when tool_choice forces tool use.'],
    ['forced tool use (tool)', { thinking: THINKING, tools: [weatherTool], tool_choice: { type: 'tool', name: 'get_weather' } }, 'Thinking may not be enabled when tool_choice forces tool use.'],
  ])('refuses %s', async (_case, extra, expected) => {
    const message = await refusal(userTurn('Think', extra));
    if (typeof expected === 'string') expect(message).toBe(expected);
    else expect(message).toMatch(expected);
  });

  it('accepts temperature 1, top_p from 0.95, and tool_choice auto', async () => {
    const response = await send(userTurn('Think', { thinking: THINKING, temperature: 1, top_p: 0.95, tools: [weatherTool], tool_choice: { type: 'auto' } }));
    expect(response.status).toBe(200);
  });

  it('thinks first, in a signed block whose tokens are part of the output', async () => {
    const body = await messageJson(await send(userTurn('How much is 925 / 5? [sim words=10]', { thinking: THINKING })));
    expect(body.content).toEqual([
      { type: 'thinking', thinking: expect.any(String), signature: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/) },
      { type: 'text', text: expect.any(String) },
    ]);
    const [thinking, text] = body.content;
    expect(thinking.thinking).toMatch(/^Let me think about "how much is 925 \/ 5"\. [A-Z]/);
    expect(text.text).toMatch(/^You asked: how much is 925 \/ 5\. [A-Z]/);
    expect(text.text.split(' ')).toHaveLength(10);
    const thinkingTokens = Math.ceil(thinking.thinking.length / 4);
    expect(body.usage).toMatchObject({ output_tokens: thinkingTokens + Math.ceil(text.text.length / 4), output_tokens_details: { thinking_tokens: thinkingTokens } });
  });
});

describe('the thinking of a tool round trip', () => {
  /** A first turn that calls the weather tool with thinking on, and a follow-up that sends `assistantContent` back with the result. */
  async function roundTrip() {
    const first = await messageJson(await send(userTurn('Weather in Paris?', { thinking: THINKING, tools: [weatherTool] })));
    const toolUse = first.content.find((block: { type: string }) => block.type === 'tool_use');
    const followUp = (assistantContent: object[], thinking: object = THINKING) => ({
      ...userTurn('', { thinking, tools: [weatherTool] }),
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: assistantContent },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: '18°C' }] },
      ],
    });
    return { first, toolUse, followUp };
  }

  it('accepts the turn sent back unchanged, thinking first', async () => {
    const { first, followUp } = await roundTrip();
    expect(first.content.map((block: { type: string }) => block.type)).toEqual(['thinking', 'tool_use']);
    const response = await send(followUp(first.content));
    expect(response.status).toBe(200);
    expect((await messageJson(response)).content.at(-1).text).toMatch(/^The tool returned: 18°C\./);
  });

  it('refuses a tool-use turn without its thinking, with the message Anthropic gives', async () => {
    const { toolUse, followUp } = await roundTrip();
    expect(await refusal(followUp([toolUse]))).toBe(
      'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final ' +
        '`assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We ' +
        'recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our ' +
        'documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking',
    );
  });

  it('refuses thinking that is not first, altered, or signed by someone else', async () => {
    const { first, toolUse, followUp } = await roundTrip();
    const [thinking] = first.content;
    expect(await refusal(followUp([{ type: 'text', text: 'Let me check.' }, thinking, toolUse]))).toMatch(/^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `text`\./);
    expect(await refusal(followUp([{ ...thinking, thinking: `${thinking.thinking} Also Rome.` }, toolUse]))).toBe('messages.1.content.0: Invalid `signature` in `thinking` block');
    expect(await refusal(followUp([{ ...thinking, signature: 'EqQBCkgIARABGAIiQL' }, toolUse]))).toBe('messages.1.content.0: Invalid `signature` in `thinking` block');
  });

  it('does not check earlier thinking when thinking is off, as Anthropic then drops it', async () => {
    const { toolUse, followUp } = await roundTrip();
    const response = await send(followUp([{ type: 'thinking', thinking: 'made up', signature: 'x' }, toolUse], { type: 'disabled' }));
    expect(response.status).toBe(200);
  });

  it('redacts the thinking of a prompt with the magic string, and takes the sealed block back only unaltered', async () => {
    const prompt = `Weather in Paris? ${REDACTED_THINKING_TRIGGER}`;
    const first = await messageJson(await send(userTurn(prompt, { thinking: THINKING, tools: [weatherTool] })));
    const [redacted, toolUse] = first.content;
    expect(redacted).toEqual({ type: 'redacted_thinking', data: expect.any(String) });
    const followUp = (assistantContent: object[]) => ({
      ...userTurn('', { thinking: THINKING, tools: [weatherTool] }),
      messages: [
        { role: 'user', content: prompt },
        { role: 'assistant', content: assistantContent },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: '18°C' }] },
      ],
    });
    expect((await send(followUp([redacted, toolUse]))).status).toBe(200);
    const altered = { ...redacted, data: `${redacted.data.startsWith('A') ? 'B' : 'A'}${redacted.data.slice(1)}` };
    expect(await refusal(followUp([altered, toolUse]))).toBe('messages.1.content.0: Invalid `data` in `redacted_thinking` block');
  });
});
