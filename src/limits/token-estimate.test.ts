import type { MeasuredUsage } from '../billing/usage-record';
import { DEFAULT_OUTPUT_ESTIMATE, estimateTokens, settledTokens, tokenCorrection } from './token-estimate';

const usage = (promptTokens: number, completionTokens: number) => ({ promptTokens, completionTokens }) as MeasuredUsage;

describe('the token estimate at admission', () => {
  const messages = [{ role: 'user', content: 'x'.repeat(400) }];
  const promptTokens = Math.ceil(JSON.stringify(messages).length / 4);

  it('takes a chat request at its prompt plus its max_tokens', () => {
    expect(estimateTokens('chat', { model: 'm', messages, max_tokens: 50 })).toBe(promptTokens + 50);
  });

  it('prefers max_completion_tokens, and assumes 256 output tokens when no maximum is set', () => {
    expect(estimateTokens('chat', { messages, max_completion_tokens: 7, max_tokens: 50 })).toBe(promptTokens + 7);
    expect(estimateTokens('chat', { messages })).toBe(promptTokens + DEFAULT_OUTPUT_ESTIMATE);
    expect(estimateTokens('chat', { messages, max_tokens: -3 })).toBe(promptTokens + DEFAULT_OUTPUT_ESTIMATE);
  });

  it('reads a Responses request by its input, instructions and max_output_tokens', () => {
    expect(estimateTokens('responses', { input: 'a'.repeat(40), instructions: 'b'.repeat(40), max_output_tokens: 10 })).toBe(20 + 10);
  });

  it('reads an Anthropic Messages request by its system, messages and max_tokens; a token count by its requests only', () => {
    expect(estimateTokens('messages', { system: 's'.repeat(40), messages, max_tokens: 9 })).toBe(Math.ceil((40 + JSON.stringify(messages).length) / 4) + 9);
    expect(estimateTokens('messages', { messages })).toBe(promptTokens + DEFAULT_OUTPUT_ESTIMATE);
    expect(estimateTokens('count_tokens', { messages })).toBe(0);
  });

  it('counts no output for embeddings and nothing for video submissions or a missing body', () => {
    expect(estimateTokens('embeddings', { input: ['a'.repeat(20), 'b'.repeat(20)] })).toBe(Math.ceil(JSON.stringify(['a'.repeat(20), 'b'.repeat(20)]).length / 4));
    expect(estimateTokens('videos', { prompt: 'a'.repeat(4000) })).toBe(0);
    expect(estimateTokens('chat', undefined)).toBe(0);
  });
});

describe('the correction once the usage record is settled', () => {
  it('consumes the shortfall when the request used more than estimated', () => {
    expect(tokenCorrection(100, settledTokens(usage(80, 70)))).toBe(50);
  });

  it('gives back the surplus when it used less, and everything when it failed without usage', () => {
    expect(tokenCorrection(300, settledTokens(usage(20, 30)))).toBe(-250);
    expect(tokenCorrection(300, settledTokens(null))).toBe(-300);
  });

  it('does nothing when the estimate was exact', () => {
    expect(tokenCorrection(42, settledTokens(usage(40, 2)))).toBe(0);
  });
});

describe('Gemini request bodies', () => {
  it('count contents, the system instruction and tools, plus maxOutputTokens or the default', () => {
    const body = { contents: [{ parts: [{ text: 'a'.repeat(400) }] }], systemInstruction: { parts: [{ text: 'b'.repeat(40) }] } };
    const prompt = Math.ceil((JSON.stringify(body.contents).length + JSON.stringify(body.systemInstruction).length) / 4);
    expect(estimateTokens('generate_content', body)).toBe(prompt + DEFAULT_OUTPUT_ESTIMATE);
    expect(estimateTokens('generate_content', { ...body, generationConfig: { maxOutputTokens: 50 } })).toBe(prompt + 50);
  });

  it('count an embedding\'s texts only, and a token count nothing', () => {
    const requests = [{ content: { parts: [{ text: 'x'.repeat(80) }] } }];
    expect(estimateTokens('embed_content', { requests })).toBe(Math.ceil(JSON.stringify(requests).length / 4));
    expect(estimateTokens('count_tokens', { contents: [{ parts: [{ text: 'x'.repeat(4000) }] }] })).toBe(0);
  });
});
