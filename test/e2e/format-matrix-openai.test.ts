import OpenAI from 'openai';
import { foreignFields, leakedFields, protocolOfPath, type UpstreamProtocol } from '../support/upstream-protocols';
import { simulatorRequests, startTestGateway, type TestGateway } from '../support/test-gateway';

/**
 * The format matrix, OpenAI's two dialects: a plain and a streamed call from
 * chat completions and from Responses to a model of each upstream family.
 * The answer has the shape of the client's dialect; the one upstream request
 * speaks the provider's own protocol, with none of another's fields.
 */
const FAMILIES: Array<{ family: string; model: string; chat: UpstreamProtocol; responses: UpstreamProtocol }> = [
  { family: 'openai', model: 'gpt-4.1-mini', chat: 'openai-chat', responses: 'openai-responses' },
  { family: 'xai', model: 'grok-4-1-fast-non-reasoning', chat: 'openai-chat', responses: 'openai-responses' },
  { family: 'anthropic', model: 'claude-haiku-4-5', chat: 'anthropic-messages', responses: 'anthropic-messages' },
  { family: 'gemini', model: 'gemini-2.5-flash', chat: 'gemini-generate', responses: 'gemini-generate' },
];

describe('format matrix: OpenAI chat completions and Responses to every upstream family', () => {
  let t: TestGateway;
  let client: OpenAI;

  beforeAll(async () => {
    t = await startTestGateway();
    client = new OpenAI({ apiKey: await t.createKey(), baseURL: t.baseURL, maxRetries: 0 });
  });
  afterAll(() => t?.close());
  beforeEach(() => fetch(`${t.simulatorUrl}/_sim/requests`, { method: 'DELETE' }));

  /** The one request the upstream received for the call, checked against its protocol. */
  async function upstreamRequest(protocol: UpstreamProtocol, streamed: boolean) {
    const { requests } = await simulatorRequests(t);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(protocolOfPath(request!.path)).toBe(protocol);
    expect(foreignFields(protocol, request!.body)).toEqual([]);
    expect(leakedFields(protocol, request!.body)).toEqual([]);
    if (protocol === 'gemini-generate') expect(request!.path.endsWith(streamed ? ':streamGenerateContent' : ':generateContent')).toBe(true);
    else if (streamed) expect(request!.body.stream).toBe(true);
    else expect(request!.body.stream ?? false).toBe(false);
    return request!;
  }

  describe.each(FAMILIES)('to $family ($model)', ({ model, chat, responses }) => {
    // A prompt-cache breakpoint, which only Anthropic's protocol takes: dropped for the others.
    const messages = [
      { role: 'system', content: [{ type: 'text', text: 'Answer briefly.', cache_control: { type: 'ephemeral' } }] },
      { role: 'user', content: 'Say hello.' },
    ] as OpenAI.Chat.Completions.ChatCompletionMessageParam[];

    it('chat completions, plain', async () => {
      const answer = await client.chat.completions.create({ model, messages });
      expect(answer).toMatchObject({ object: 'chat.completion', model, choices: [{ index: 0, message: { role: 'assistant' }, finish_reason: 'stop' }] });
      expect(answer.choices[0]!.message.content).toEqual(expect.stringMatching(/\S/));
      expect(answer.usage!.total_tokens).toBe(answer.usage!.prompt_tokens + answer.usage!.completion_tokens);
      expect(answer.usage!.prompt_tokens).toBeGreaterThan(0);
      const upstream = await upstreamRequest(chat, false);
      if (chat === 'anthropic-messages') expect(upstream.body.system).toEqual([{ type: 'text', text: 'Answer briefly.', cache_control: { type: 'ephemeral' } }]);
    });

    it('chat completions, streamed', async () => {
      const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
      for await (const chunk of await client.chat.completions.create({ model, messages, stream: true, stream_options: { include_usage: true } })) chunks.push(chunk);
      expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === model && c.id === chunks[0]!.id)).toBe(true);
      expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toMatch(/\S/);
      expect(chunks.some((c) => c.choices[0]?.finish_reason === 'stop')).toBe(true);
      expect(chunks.at(-1)!.usage!.prompt_tokens).toBeGreaterThan(0);
      await upstreamRequest(chat, true);
    });

    it('Responses, plain', async () => {
      const answer = await client.responses.create({ model, instructions: 'Answer briefly.', input: 'Say hello.', store: false });
      expect(answer).toMatchObject({ object: 'response', status: 'completed', model });
      expect(answer.output_text).toMatch(/\S/);
      expect(answer.usage!.total_tokens).toBe(answer.usage!.input_tokens + answer.usage!.output_tokens);
      await upstreamRequest(responses, false);
    });

    it('Responses, streamed', async () => {
      const types: string[] = [];
      let text = '';
      for await (const event of await client.responses.create({ model, instructions: 'Answer briefly.', input: 'Say hello.', store: false, stream: true })) {
        types.push(event.type);
        if (event.type === 'response.output_text.delta') text += event.delta;
      }
      expect(types[0]).toBe('response.created');
      expect(types.at(-1)).toBe('response.completed');
      expect(text).toMatch(/\S/);
      await upstreamRequest(responses, true);
    });
  });
});
