import { errorBody, openaiClient, postJson, readRecorded, RECORDED_DIR, useSimulator } from './simulator-test-kit';

const simulator = useSimulator();

describe('replay of recorded OpenAI responses', () => {
  it('answers model recorded:text with text.json, byte for byte', async () => {
    const response = await postJson(simulator.current, '/v1/chat/completions', { model: 'recorded:text', messages: [{ role: 'user', content: 'Invent a holiday' }] });

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(Buffer.from(await response.arrayBuffer()).equals(readRecorded('openai-chat/text.json'))).toBe(true);
  });

  it('streams text.chunks.txt one line per data event, then [DONE]', async () => {
    const lines = readRecorded('openai-chat/text.chunks.txt').toString('utf8').split('\n').filter(Boolean);
    const response = await postJson(simulator.current, '/v1/chat/completions', { model: 'recorded:text', stream: true, messages: [{ role: 'user', content: 'Invent a holiday' }] });

    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(await response.text()).toBe(lines.map((line) => `data: ${line}\n\n`).join('') + 'data: [DONE]\n\n');
  });

  it('replays by directive whatever the model, and the SDK reads the recording', async () => {
    const stream = await openaiClient(simulator.current).chat.completions.create({
      model: 'gpt-4o',
      stream: true,
      messages: [{ role: 'user', content: 'Invent a holiday [sim replay=text]' }],
    });
    let text = '';
    let completionTokens = 0;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      completionTokens = chunk.usage?.completion_tokens ?? completionTokens;
    }

    expect(text.startsWith('**Holiday Name:** Harmony Day')).toBe(true);
    expect(completionTokens).toBe(300);
  });

  it('says which recording is missing', async () => {
    const response = await postJson(simulator.current, '/v1/chat/completions', { model: 'recorded:nothing-like-this', messages: [{ role: 'user', content: 'Hi' }] });

    expect(response.status).toBe(400);
    expect((await errorBody(response)).error.message).toBe(`No recorded response 'openai-chat/nothing-like-this.json' in ${RECORDED_DIR}.`);
  });
});

describe('a simulator started without a recordings folder', () => {
  const bare = useSimulator({ fixturesDir: undefined });

  it('generates answers and refuses a replay, saying it has no recordings folder', async () => {
    const generated = await postJson(bare.current, '/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] });
    const replay = await postJson(bare.current, '/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi [sim replay=text]' }] });

    expect(generated.status).toBe(200);
    expect(replay.status).toBe(400);
    expect((await errorBody(replay)).error.message).toBe("No recorded response 'openai-chat/text.json': the simulator was started without a recordings folder (fixturesDir, SIMULATOR_FIXTURES_DIR).");
  });
});
