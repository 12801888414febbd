import { startSimulator, type SimulatorHandle } from '../src/server';
import { anthropicError, postMessages, userTurn } from './anthropic-test-kit';
import { postGemini, userText } from './gemini-test-kit';

/**
 * The newer thinking controls, as the real APIs check them: Claude 4.7 and
 * later take only adaptive thinking (a fixed budget is a 400), with an effort
 * level in `output_config`; Gemini 3 takes a thinking level, never together
 * with a budget, and Gemini 2.5 takes no level.
 */
describe('simulator: adaptive thinking and thinking levels', () => {
  let sim: SimulatorHandle;
  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(() => sim.close());

  it('Claude 4.7 refuses a fixed budget and names the replacement', async () => {
    const { status, body } = await anthropicError(await postMessages(sim, userTurn('Hi', { model: 'claude-opus-4-7', thinking: { type: 'enabled', budget_tokens: 1024 } })));
    expect(status).toBe(400);
    expect(body.error.message).toContain('thinking.type.adaptive');
  });

  it('Claude 4.6 still takes a fixed budget', async () => {
    const res = await postMessages(sim, userTurn('Hi', { model: 'claude-opus-4-6', thinking: { type: 'enabled', budget_tokens: 1024 } }));
    expect(res.status).toBe(200);
  });

  it('Claude 4.7 thinks with adaptive thinking and an effort level', async () => {
    const res = await postMessages(sim, userTurn('Hi', { model: 'claude-opus-4-7', thinking: { type: 'adaptive' }, output_config: { effort: 'low' } }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { content: { type: string }[] };
    expect(body.content[0]!.type).toBe('thinking');
  });

  it('an unknown effort level is a 400', async () => {
    const { status, body } = await anthropicError(await postMessages(sim, userTurn('Hi', { model: 'claude-opus-4-7', thinking: { type: 'adaptive' }, output_config: { effort: 'extreme' } })));
    expect(status).toBe(400);
    expect(body.error.message).toContain('output_config.effort');
  });

  it.each([
    ['a level and a budget together', 'gemini-3-pro-preview', { thinkingLevel: 'low', thinkingBudget: 1024 }, 'only one of thinking budget and thinking level'],
    ['a level on Gemini 2.5', 'gemini-2.5-flash', { thinkingLevel: 'low' }, 'Thinking level is not supported'],
    ['a level Gemini 3 Pro does not have', 'gemini-3-pro-preview', { thinkingLevel: 'medium' }, 'thinking_level'],
  ])('Gemini refuses %s', async (_name, model, thinkingConfig, message) => {
    const res = await postGemini(sim, model, 'generateContent', userText('Hi', { generationConfig: { thinkingConfig } }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain(message);
  });

  it('Gemini 3 thinks at the level given', async () => {
    const res = await postGemini(sim, 'gemini-3-flash-preview', 'generateContent', userText('Hi', { generationConfig: { thinkingConfig: { thinkingLevel: 'medium' } } }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { usageMetadata: { thoughtsTokenCount?: number } };
    expect(body.usageMetadata.thoughtsTokenCount).toBeGreaterThanOrEqual(700);
  });
});
