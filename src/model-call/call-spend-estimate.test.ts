import { billDimensions } from '../billing/line-items';
import { PriceTable } from '../billing/price-table';
import { holdMicrousd } from '../billing/spend-estimate';
import type { Candidate } from '../catalog/catalog';
import { modelSchema, type ModelConfig } from '../config/gateway-config-schema';
import { IMAGE_TOKEN_ALLOWANCE, pricedRoutes, spendEstimateOf, TOOL_PROMPT_ALLOWANCE } from './call-spend-estimate';

/**
 * Two models a call may be routed over: `sheet` first (input 2.50, a cache
 * write 3.125, output 10.00 USD per million tokens; up to 8,192 output
 * tokens), then `dear` as its fallback (input 5.00, output 15.00; up to
 * 1,000 output tokens).
 */
const sheet = modelSchema.parse({
  id: 'sheet', owned_by: 'x', family: 'openai', endpoint_types: ['chat'], context_window: 200_000, max_output_tokens: 8_192,
  pricing: { input: '2.50', cache_write_5m: '3.125', output: '10.00', service_tier_priority: '1.00' }, routes: [{ provider: 'p', upstream_model: 'u' }],
});
const dear = modelSchema.parse({
  id: 'dear', owned_by: 'x', family: 'openai', endpoint_types: ['chat'], context_window: 32_000, max_output_tokens: 1_000,
  pricing: { input: '5.00', output: '15.00', service_tier_priority: '2.00' }, routes: [{ provider: 'q', upstream_model: 'd' }],
});
const table = new PriceTable([sheet, dear]);
const candidate = (config: ModelConfig) =>
  ({ model: { id: config.id, config, routes: [] }, route: { provider: { name: config.routes[0]!.provider }, upstreamModel: config.routes[0]!.upstream_model, lane: 'standard', config: config.routes[0] } }) as unknown as Candidate;
const routes = pricedRoutes([candidate(sheet), candidate(dear)]);

const hello = [{ role: 'user', content: 'Hello' }];

describe('the worst case of a request, read from its body', () => {
  it("bounds the prompt by the body's UTF-8 bytes and takes max_tokens as the output cap", () => {
    // {"model":"sheet","messages":[{"role":"user","content":"Hello"}],"max_tokens":100} is 81 bytes.
    expect(spendEstimateOf('chat', { model: 'sheet', messages: hello, max_tokens: 100 })).toEqual({ promptTokens: 81, outputCap: 100 });
  });

  it('takes max_completion_tokens over max_tokens', () => {
    expect(spendEstimateOf('chat', { model: 'sheet', messages: hello, max_tokens: 100, max_completion_tokens: 300 })).toEqual({ promptTokens: 109, outputCap: 300 });
  });

  it("leaves the cap to the model's maximum when the request sets none", () => {
    expect(spendEstimateOf('chat', { model: 'sheet', messages: hello })).toEqual({ promptTokens: 64, outputCap: null });
  });

  it('holds a reasoning budget inside max_tokens (the reasoning rules keep it below)', () => {
    expect(spendEstimateOf('chat', { model: 'sheet', messages: hello, max_tokens: 4_096, reasoning: { max_tokens: 2_048 } })).toEqual({ promptTokens: 114, outputCap: 4_096 });
  });

  it('estimates a streamed request like any other: only its bytes differ', () => {
    expect(spendEstimateOf('chat', { model: 'sheet', messages: hello, max_tokens: 100, stream: true, stream_options: { include_usage: true } })).toEqual({ promptTokens: 135, outputCap: 100 });
  });

  it('adds an allowance for each image', () => {
    const content = [{ type: 'text', text: 'Compare' }, { type: 'image_url', image_url: { url: 'https://x/a.png' } }, { type: 'image_url', image_url: { url: 'https://x/b.png' } }];
    expect(IMAGE_TOKEN_ALLOWANCE).toBe(6_000);
    expect(spendEstimateOf('chat', { model: 'sheet', messages: [{ role: 'user', content }], max_tokens: 100 })).toEqual({ promptTokens: 226 + 12_000, outputCap: 100 });
  });

  it('reads a Gemini body: inline images by their MIME type, other inline data and file URIs as files, maxOutputTokens as the cap', () => {
    const image = { contents: [{ parts: [{ text: 'Compare' }, { inlineData: { mimeType: 'image/png', data: 'iVBO' } }] }], generationConfig: { maxOutputTokens: 200 } };
    expect(spendEstimateOf('generate_content', image)).toEqual({ promptTokens: Buffer.byteLength(JSON.stringify(image)) + IMAGE_TOKEN_ALLOWANCE, outputCap: 200 });
    const pdf = { contents: [{ parts: [{ inlineData: { mimeType: 'application/pdf', data: 'JVBE' } }] }] };
    expect(spendEstimateOf('generate_content', pdf)).toEqual({ promptTokens: Number.MAX_SAFE_INTEGER, outputCap: null });
    const byUri = { contents: [{ parts: [{ fileData: { fileUri: 'https://x/video.mp4' } }] }] };
    expect(spendEstimateOf('generate_content', byUri).promptTokens).toBe(Number.MAX_SAFE_INTEGER);
  });

  it("lets a file fill the model's whole prompt", () => {
    const content = [{ type: 'file', file: { file_id: 'file_1' } }];
    expect(spendEstimateOf('chat', { model: 'sheet', messages: [{ role: 'user', content }], max_tokens: 100 }).promptTokens).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('adds the system prompt an upstream wraps tools in', () => {
    expect(TOOL_PROMPT_ALLOWANCE).toBe(1_000);
    const body = { model: 'sheet', messages: [{ role: 'user', content: 'Hi' }], tools: [{ type: 'function', function: { name: 'f' } }], max_tokens: 100 };
    expect(spendEstimateOf('chat', body)).toEqual({ promptTokens: 132 + 1_000, outputCap: 100 });
    expect(spendEstimateOf('chat', { ...body, tools: [] }).promptTokens).toBe(Buffer.byteLength(JSON.stringify({ ...body, tools: [] })));
  });

  it('reads an Anthropic Messages body: images and documents in system, messages and tool results, max_tokens as the cap', () => {
    const image = { type: 'image', source: { type: 'url', url: 'https://x/a.png' } };
    const body = { model: 'sheet', max_tokens: 300, messages: [{ role: 'user', content: [image, { type: 'tool_result', tool_use_id: 't', content: [image] }] }] };
    expect(spendEstimateOf('messages', body)).toEqual({ promptTokens: Buffer.byteLength(JSON.stringify(body)) + 2 * IMAGE_TOKEN_ALLOWANCE, outputCap: 300 });
    const pdf = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } };
    expect(spendEstimateOf('messages', { ...body, messages: [{ role: 'user', content: [pdf] }] }).promptTokens).toBe(Number.MAX_SAFE_INTEGER);
    expect(spendEstimateOf('messages', { ...body, service_tier: 'priority' })).not.toHaveProperty('perTokenDimensions');
  });

  it('counts each of the n completions a chat request asks for', () => {
    expect(spendEstimateOf('chat', { model: 'sheet', messages: hello, max_tokens: 100, n: 3 })).toEqual({ promptTokens: 87, outputCap: 100, choices: 3 });
  });

  it('names a paid service tier as billed on every token', () => {
    expect(spendEstimateOf('chat', { model: 'sheet', messages: hello, max_tokens: 100, service_tier: 'priority' })).toEqual({ promptTokens: 107, outputCap: 100, perTokenDimensions: ['service_tier_priority'] });
    expect(spendEstimateOf('chat', { model: 'sheet', messages: hello, max_tokens: 100, service_tier: 'auto' })).toEqual({ promptTokens: 107 - 'priority'.length + 'auto'.length, outputCap: 100 });
  });

  it("reads a Responses request's input images and max_output_tokens", () => {
    const input = [{ role: 'user', content: [{ type: 'input_text', text: 'Look' }, { type: 'input_image', image_url: 'https://x/a.png' }] }];
    expect(spendEstimateOf('responses', { model: 'sheet', input, max_output_tokens: 200 })).toEqual({ promptTokens: 168 + 6_000, outputCap: 200 });
  });

  it('gives embeddings no output', () => {
    expect(spendEstimateOf('embeddings', { model: 'sheet', input: ['one', 'two'] })).toEqual({ promptTokens: 39, outputCap: 0 });
  });
});

describe('the hold of a request over its routes, in micro-USD', () => {
  it('prices each route with its own model limits', () => {
    expect(routes).toEqual([
      { modelId: 'sheet', lane: 'standard', maxInputTokens: 200_000, maxOutputTokens: 8_192, contextWindow: 200_000 },
      { modelId: 'dear', lane: 'standard', maxInputTokens: 32_000, maxOutputTokens: 1_000, contextWindow: 32_000 },
    ]);
  });

  it.each([
    // 81 × 5 + 3 and 100 × 15 + 3 on dear (sheet: 253 + 3 and 1,000 + 3).
    ['max_tokens given: the dearer fallback sets it', { max_tokens: 100 }, 1_911n],
    // 64 × 3.125 + 3 and 8,192 × 10 + 3 on sheet (dear stops at 1,000 output tokens: 15,326).
    ['max_tokens absent: the first route, with its larger maximum output, sets it', {}, 82_126n],
    // 87 × 5 + 3 and 3 × 100 × 15 + 3 on dear.
    ['three completions', { max_tokens: 100, n: 3 }, 438n + 4_503n],
    // 132 + 1,000 prompt tokens: 1,132 × 5 + 3 and 1,503 on dear.
    ['tools', { messages: [{ role: 'user', content: 'Hi' }], tools: [{ type: 'function', function: { name: 'f' } }], max_tokens: 100 }, 5_663n + 1_503n],
    // 107 × 5 + 3, 1,503, and (107 + 100) × 2 + 3 on dear.
    ['a paid tier', { max_tokens: 100, service_tier: 'priority' }, 538n + 1_503n + 417n],
    // 32,000 × 5 + 3 and 1,503 on dear; sheet: 200,000 × 3.125 + 3 and 1,003.
    ['a file', { messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file_1' } }] }], max_tokens: 100 }, 625_003n + 1_003n],
  ])('%s', (_name, extra, hold) => {
    expect(holdMicrousd(table, routes, spendEstimateOf('chat', { model: 'sheet', messages: hello, ...extra }))).toBe(hold);
  });

  it('is never below the charge of the largest answer either route can give', () => {
    const body = { model: 'sheet', messages: hello, max_tokens: 600, n: 2 };
    const hold = holdMicrousd(table, routes, spendEstimateOf('chat', body));
    // At most one token per byte of the prompt, and each completion at most its cap (and the model's maximum).
    const prompt = Buffer.byteLength(JSON.stringify(body));
    for (const [model, completion] of [['sheet', 2 * 600], ['dear', 2 * 600]] as const) {
      for (const promptDimension of ['input', 'cache_write_5m']) {
        const charge = billDimensions(table, model, 'standard', [{ name: promptDimension, quantity: prompt, unit: 'tokens' }, { name: 'output', quantity: completion, unit: 'tokens' }]).amountMicroUsd;
        expect(charge).toBeLessThanOrEqual(hold);
      }
    }
  });
});
