import { GEMINI_KEY_HEADER, postGemini, userText } from './gemini-test-kit';
import { useSimulator } from './simulator-test-kit';

const simulator = useSimulator();

const count = (model: string, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json', ...GEMINI_KEY_HEADER }) =>
  fetch(`${simulator.current.url}/v1beta/models/${model}:countTokens`, { method: 'POST', headers, body: JSON.stringify(body) });

describe('Gemini countTokens', () => {
  it('counts as promptTokenCount does, for contents alone or a whole generateContentRequest', async () => {
    const request = userText('How many tokens is this?', { systemInstruction: { parts: [{ text: 'Be brief.' }] } });
    const answer = (await (await postGemini(simulator.current, 'gemini-2.5-flash', 'generateContent', { ...request, generationConfig: { thinkingConfig: { thinkingBudget: 0 } } })).json()) as { usageMetadata: { promptTokenCount: number } };
    const whole = (await (await count('gemini-2.5-flash', { generateContentRequest: { model: 'models/gemini-2.5-flash', ...request } })).json()) as { totalTokens: number };
    expect(whole.totalTokens).toBe(answer.usageMetadata.promptTokenCount);
    const contents = (await (await count('gemini-2.5-flash', { contents: (request as { contents: unknown }).contents })).json()) as { totalTokens: number; promptTokensDetails: unknown };
    expect(contents.totalTokens).toBeLessThan(whole.totalTokens);
    expect(contents.promptTokensDetails).toEqual([{ modality: 'TEXT', tokenCount: contents.totalTokens }]);
  });

  it.each([
    ['no contents', {}, 400],
    ['both forms at once', { contents: [{ parts: [{ text: 'a' }] }], generateContentRequest: { contents: [{ parts: [{ text: 'a' }] }] } }, 400],
  ])('refuses %s', async (_name, body, status) => {
    const res = await count('gemini-2.5-flash', body);
    expect(res.status).toBe(status);
    expect(((await res.json()) as { error: { status: string } }).error.status).toBe('INVALID_ARGUMENT');
  });

  it('needs an API key', async () => {
    expect((await count('gemini-2.5-flash', { contents: [{ parts: [{ text: 'a' }] }] }, { 'content-type': 'application/json' })).status).toBe(403);
  });
});
