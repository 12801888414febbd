import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertOpenAIResponsesUsage } from './openai-responses-usage';

const recorded = (name: string) => JSON.parse(readFileSync(join(__dirname, '../../../test/fixtures/recorded/openai-responses', name), 'utf8'));

describe('convertOpenAIResponsesUsage', () => {
  it('the recorded reasoning answer: reasoning is part of the output, a reported zero cache is a real zero', () => {
    const raw = recorded('reasoning-encrypted-content.json').usage;
    expect(convertOpenAIResponsesUsage(raw)).toStrictEqual({
      inputTokens: 865, outputTokens: 163, reasoningTokens: 128, cacheReadTokens: 0,
      cacheWriteTokens: { ttl5m: 0, ttl1h: 0 }, reportsCache: true, family: 'openai', raw,
    });
  });

  it('cached tokens are cache reads inside the input; a newer cache_write_tokens is a write of unstated lifetime', () => {
    const raw = {
      input_tokens: 2006, input_tokens_details: { cached_tokens: 1920, cache_write_tokens: 64 },
      output_tokens: 300, output_tokens_details: { reasoning_tokens: 256 }, total_tokens: 2306,
    };
    expect(convertOpenAIResponsesUsage(raw)).toMatchObject({
      inputTokens: 2006, cacheReadTokens: 1920, cacheWriteTokens: { ttl5m: 64, ttl1h: 0 }, outputTokens: 300, reasoningTokens: 256, reportsCache: true,
    });
  });

  it.each<[string, Record<string, unknown>]>([
    ['no details at all', { input_tokens: 9, output_tokens: 3, total_tokens: 12 }],
    ['a null cached count', { input_tokens: 9, input_tokens_details: { cached_tokens: null }, output_tokens: 3 }],
  ])('%s: no cache report, zeros elsewhere', (_, raw) => {
    expect(convertOpenAIResponsesUsage(raw)).toStrictEqual({
      inputTokens: 9, outputTokens: 3, reasoningTokens: 0, cacheReadTokens: 0,
      cacheWriteTokens: { ttl5m: 0, ttl1h: 0 }, reportsCache: false, family: 'openai', raw,
    });
  });
});
