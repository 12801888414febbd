import OpenAI from 'openai';
import { fetchUsageRecord, simulatorRequests, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;
const weatherTool: OpenAI.Chat.Completions.ChatCompletionTool = {
  type: 'function',
  function: { name: 'get_weather', description: 'Current weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

describe.each(TEST_DATABASES)('reasoning through the openai SDK (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  let client: OpenAI;

  beforeAll(async () => {
    t = await startTestGateway({ database });
    key = await t.createKey({ name: 'reasoning-sdk' });
    client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
  });
  afterAll(() => t?.close());

  it('streams a Claude answer with all reasoning before the first content, and bills reasoning tokens', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({
        model: 'claude-sonnet-4-5',
        max_tokens: 4096,
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'What is 925 divided by 5?' }],
        // The gateway's reasoning controls travel as an extra body field.
        ...({ reasoning: { effort: 'medium' } } as object),
      })
      .withResponse();
    let reasoning = '';
    let content = '';
    let contentStarted = false;
    let reasoningAfterContent = false;
    let emptyChoiceChunks = 0;
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      if (!chunk.choices.length) {
        emptyChoiceChunks++;
        usage = chunk.usage ?? usage;
        continue;
      }
      const delta = chunk.choices[0].delta as { content?: string; reasoning_content?: string };
      if (delta.reasoning_content) {
        reasoning += delta.reasoning_content;
        if (contentStarted) reasoningAfterContent = true;
      }
      if (delta.content) {
        content += delta.content;
        contentStarted = true;
      }
    }
    expect(reasoning.length).toBeGreaterThan(0);
    expect(content.length).toBeGreaterThan(0);
    expect(reasoningAfterContent).toBe(false);
    expect(emptyChoiceChunks).toBe(1);
    expect(usage!.completion_tokens_details!.reasoning_tokens).toBeGreaterThan(0);

    const { requests } = await simulatorRequests(t);
    expect(requests[requests.length - 1].body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    const record = (await fetchUsageRecord(t, key, response.headers.get('x-svc-request-id')!)).body;
    const reasoningItem = record.billing.line_items.find((l: any) => l.dimension === 'reasoning');
    expect(reasoningItem.quantity).toBe(usage!.completion_tokens_details!.reasoning_tokens);
    expect(reasoningItem.unit_microusd).toBe(15); // priced as output: $15 per million
    expect(record.provider_usage.family).toBe('anthropic');
  });

  it('carries signed thinking through a two-turn Claude tool call; losing it is refused upstream', async () => {
    const messages: Message[] = [{ role: 'user', content: 'What is the weather in Paris?' }];
    const first = await client.chat.completions.create({ model: 'claude-sonnet-4-5#thinking', max_tokens: 4096, tools: [weatherTool], messages });
    const assistant = first.choices[0].message;
    expect(first.choices[0].finish_reason).toBe('tool_calls');
    expect((assistant as any).reasoning_details[0]).toMatchObject({ type: 'thinking', signature: expect.any(String) });

    // The client sends the assistant message back exactly as it received it.
    const call = assistant.tool_calls![0];
    const next: Message[] = [...messages, assistant as Message, { role: 'tool', tool_call_id: call.id, content: '{"temp_c": 18}' }];
    const second = await client.chat.completions.create({ model: 'claude-sonnet-4-5#thinking', max_tokens: 4096, tools: [weatherTool], messages: next });
    expect(second.choices[0].finish_reason).toBe('stop');
    expect(second.choices[0].message.content).toBeTruthy();
    const { requests } = await simulatorRequests(t);
    const sentAssistant = requests[requests.length - 1].body.messages[1];
    expect(sentAssistant.content[0]).toEqual((assistant as any).reasoning_details[0]);

    // Without the thinking block the upstream refuses the turn, as Anthropic does.
    const { reasoning_details: _dropped, ...stripped } = assistant as any;
    const lost = await client.chat.completions
      .create({ model: 'claude-sonnet-4-5#thinking', max_tokens: 4096, tools: [weatherTool], messages: [...messages, stripped, next[2]] })
      .catch((e) => e);
    expect(lost.status).toBe(400);
    expect(lost.message).toMatch(/thinking/);
  });

  it('carries the streamed reasoning details back the same way', async () => {
    const stream = await client.chat.completions.create({
      model: 'claude-haiku-4-5#thinking',
      max_tokens: 4096,
      tools: [weatherTool],
      stream: true,
      messages: [{ role: 'user', content: 'Weather in Oslo?' }],
    });
    const details: unknown[] = [];
    const calls: Record<number, { id: string; name: string; arguments: string }> = {};
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as any;
      if (delta?.reasoning_details) details.push(...delta.reasoning_details);
      for (const c of delta?.tool_calls ?? []) {
        calls[c.index] ??= { id: '', name: '', arguments: '' };
        calls[c.index].id += c.id ?? '';
        calls[c.index].name += c.function?.name ?? '';
        calls[c.index].arguments += c.function?.arguments ?? '';
      }
    }
    expect(details).toHaveLength(1);
    const toolCall = { id: calls[0].id, type: 'function' as const, function: { name: calls[0].name, arguments: calls[0].arguments } };
    const answer = await client.chat.completions.create({
      model: 'claude-haiku-4-5#thinking',
      max_tokens: 4096,
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'Weather in Oslo?' },
        { role: 'assistant', content: null, tool_calls: [toolCall], ...({ reasoning_details: details } as object) },
        { role: 'tool', tool_call_id: toolCall.id, content: 'cold' },
      ],
    });
    expect(answer.choices[0].message.content).toBeTruthy();
  });

  it('carries Gemini thought signatures through a tool round trip', async () => {
    const messages: Message[] = [{ role: 'user', content: 'What is the weather in Rome?' }];
    const first = await client.chat.completions.create({ model: 'gemini-2.5-pro', tools: [weatherTool], messages });
    const assistant = first.choices[0].message;
    const call = assistant.tool_calls![0];
    expect((assistant as any).reasoning_details).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'thought_signature', tool_call_id: call.id })]));
    const second = await client.chat.completions.create({
      model: 'gemini-2.5-pro',
      tools: [weatherTool],
      messages: [...messages, assistant as Message, { role: 'tool', tool_call_id: call.id, content: '{"temp_c": 25}' }],
    });
    expect(second.choices[0].message.content).toBeTruthy();

    const { reasoning_details: _dropped, ...stripped } = assistant as any;
    const lost = await client.chat.completions
      .create({ model: 'gemini-2.5-pro', tools: [weatherTool], messages: [...messages, stripped, { role: 'tool', tool_call_id: call.id, content: '{}' }] })
      .catch((e) => e);
    expect(lost.status).toBe(400);
    expect(lost.message).toMatch(/thought_signature/);
  });
});
