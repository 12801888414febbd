import { convertAnthropicUsage, mergeAnthropicUsage } from './convert-anthropic-usage';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason';

describe('convertAnthropicUsage', () => {
  it('counts cache reads and writes into the whole prompt, writes split by lifetime, thinking when reported', () => {
    const raw = {
      input_tokens: 10, cache_creation_input_tokens: 300, cache_read_input_tokens: 2000,
      cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 200 },
      output_tokens: 80, output_tokens_details: { thinking_tokens: 50 }, service_tier: 'standard',
    };
    expect(convertAnthropicUsage(raw)).toEqual({
      inputTokens: 2310, outputTokens: 80, reasoningTokens: 50, cacheReadTokens: 2000,
      cacheWriteTokens: { ttl5m: 100, ttl1h: 200 }, reportsCache: true, family: 'anthropic', raw,
    });
  });

  it('counts a write without the lifetime split as a 5-minute write', () => {
    expect(convertAnthropicUsage({ input_tokens: 5, cache_creation_input_tokens: 40, cache_read_input_tokens: 0, output_tokens: 1 }).cacheWriteTokens).toEqual({ ttl5m: 40, ttl1h: 0 });
  });

  it('lets the later cumulative figures of a stream win, keeping what only the start had', () => {
    const start = { input_tokens: 43, cache_read_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 }, output_tokens: 1 };
    expect(mergeAnthropicUsage(start, { input_tokens: 61, output_tokens: 2, cache_read_input_tokens: null })).toEqual({ ...start, input_tokens: 61, output_tokens: 2 });
    expect(mergeAnthropicUsage(start, null)).toBe(start);
  });
});

describe('mapAnthropicStopReason', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['pause_turn', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['tool_use', 'tool_calls'],
    ['refusal', 'content_filter'],
    ['a_reason_from_the_future', 'stop'],
  ])('%s is %s', (stopReason, finishReason) => {
    expect(mapAnthropicStopReason(stopReason)).toBe(finishReason);
  });
});
