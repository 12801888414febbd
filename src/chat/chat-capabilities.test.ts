import type { Candidate } from '../catalog/catalog';
import { DEFAULT_MODELS } from '../config/default-catalog';
import { modelSchema, type ModelConfig } from '../config/gateway-config-schema';
import { GatewayError } from '../errors/gateway-error';
import type { ChatRequest } from '../providers/chat-request';
import type { ResolvedProvider } from '../providers/resolved-provider';
import { filterCapableCandidates } from './chat-capabilities';

const provider: ResolvedProvider = { name: 'p', type: 'openai', baseUrl: 'http://upstream.test/v1', apiKey: 'k', timeoutMs: 1000, headers: {}, simulated: false };

function candidate(config: ModelConfig, lane = 'standard'): Candidate {
  const routeConfig = { provider: 'p', upstream_model: config.id, lane };
  return { model: { id: config.id, config, routes: [] }, route: { provider, upstreamModel: config.id, lane, config: routeConfig } };
}

const fromCatalog = (id: string) => candidate(modelSchema.parse(DEFAULT_MODELS.find((m) => m.id === id)));
/** A text-only model that supports nothing optional and caps output at 1000 tokens. */
const bare = candidate(modelSchema.parse({
  id: 'bare', owned_by: 'x', family: 'openai', endpoint_types: ['chat'], context_window: 8000, max_output_tokens: 1000,
  capabilities: { tools: false, tool_choice: false, json_output: false, vision: false, streaming: false, prompt_caching: false, structured_outputs: false },
  pricing: { input: '1' }, routes: [{ provider: 'p', upstream_model: 'bare' }],
}));
/** Tools, but no way to force a call. */
const toolsOnly = candidate(modelSchema.parse({
  id: 'tools-only', owned_by: 'x', family: 'openai', endpoint_types: ['chat'], context_window: 8000,
  capabilities: { tools: true, tool_choice: false }, pricing: { input: '1' }, routes: [{ provider: 'p', upstream_model: 'tools-only' }],
}));
const gpt = fromCatalog('gpt-4.1-mini');
const claude = fromCatalog('claude-sonnet-4-5');

const tool = { type: 'function' as const, function: { name: 'f' } };
const image: ChatRequest['messages'] = [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] }];
const req = (extra: Partial<ChatRequest> = {}): ChatRequest => ({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], ...extra });

function refusal(candidates: Candidate[], extra: Partial<ChatRequest>): GatewayError {
  try {
    filterCapableCandidates(candidates, req(extra));
  } catch (err) {
    expect(err).toBeInstanceOf(GatewayError);
    return err as GatewayError;
  }
  throw new Error('expected a refusal');
}

describe('filterCapableCandidates', () => {
  it.each<[string, Partial<ChatRequest>]>([
    ['a plain request', {}],
    ['an empty tools list', { tools: [] }],
    ['tool_choice auto', { tool_choice: 'auto' }],
    ['response_format text', { response_format: { type: 'text' } }],
    ['text-only parts', { messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] }],
    ['max_tokens at the limit', { max_tokens: 1000 }],
    ['max_completion_tokens at the limit', { max_completion_tokens: 1000 }],
    ['stream false', { stream: false }],
  ])('lets %s through on a model that supports nothing optional', (_, extra) => {
    expect(filterCapableCandidates([bare], req(extra))).toEqual([bare]);
  });

  it.each<[string, Partial<ChatRequest>, string, string, string]>([
    ['tools', { tools: [tool] }, 'unsupported_parameter', 'tools', 'does not support tools (catalog parameters.tools is false)'],
    ['response_format json_object', { response_format: { type: 'json_object' } }, 'unsupported_parameter', 'response_format', 'does not support JSON output'],
    ['response_format json_schema', { response_format: { type: 'json_schema', json_schema: { name: 'out' } } }, 'unsupported_parameter', 'response_format', 'JSON output'],
    ['stream', { stream: true }, 'unsupported_parameter', 'stream', 'does not support streaming'],
    ['an image part', { messages: image }, 'unsupported_parameter', 'messages', 'does not support image input'],
    ['max_tokens over the limit', { max_tokens: 1001 }, 'max_tokens_out_of_range', 'max_tokens', '"max_tokens" is 1001, above the 1000 output tokens the model "bare" allows.'],
    ['max_completion_tokens over the limit', { max_tokens: 10, max_completion_tokens: 1001 }, 'max_tokens_out_of_range', 'max_completion_tokens', '"max_completion_tokens" is 1001'],
  ])('refuses %s on a model without it', (_, extra, code, param, fragment) => {
    const err = refusal([bare], extra);
    expect({ status: err.status, code: err.code, param: err.options.param }).toEqual({ status: 400, code, param });
    expect(err.message).toContain(fragment);
  });

  it.each([['required' as const], [{ type: 'function' as const, function: { name: 'f' } }]])('refuses tool_choice %j on a model with tools but no tool_choice', (choice) => {
    const err = refusal([toolsOnly], { tools: [tool], tool_choice: choice });
    expect({ code: err.code, param: err.options.param }).toEqual({ code: 'unsupported_parameter', param: 'tool_choice' });
    expect(err.message).toBe('The model "tools-only" does not support tool_choice; remove "tool_choice" or pick a model whose catalog entry supports it.');
    expect(filterCapableCandidates([toolsOnly], req({ tools: [tool], tool_choice: 'auto' }))).toEqual([toolsOnly]);
  });

  it('lets tool_choice none through where the catalog says tool_choice: false: it forces nothing', () => {
    expect(filterCapableCandidates([toolsOnly], req({ tools: [tool], tool_choice: 'none' }))).toEqual([toolsOnly]);
    expect(filterCapableCandidates([bare], req({ tool_choice: 'none' }))).toEqual([bare]);
    // Tools themselves are still checked.
    expect(refusal([bare], { tools: [tool], tool_choice: 'none' }).options.param).toBe('tools');
  });

  it('names the unsupported feature and the model in the message', () => {
    expect(refusal([bare], { tools: [tool] }).message).toBe(
      'The model "bare" does not support tools (catalog parameters.tools is false); remove "tools" or pick a model whose catalog entry supports it.',
    );
  });

  it('checks tools before response_format, stream, images and max_tokens', () => {
    expect(refusal([bare], { tools: [tool], response_format: { type: 'json_object' }, stream: true, messages: image, max_tokens: 5000 }).options.param).toBe('tools');
    expect(refusal([bare], { stream: true, messages: image, max_tokens: 5000 }).options.param).toBe('stream');
  });

  it('the catalog: Claude and GPT both take JSON output, tools, images and streaming', () => {
    const everything = { tools: [tool], tool_choice: 'required' as const, messages: image, stream: true };
    expect(filterCapableCandidates([claude, gpt], req(everything))).toEqual([claude, gpt]);
    expect(filterCapableCandidates([claude, gpt], req({ ...everything, response_format: { type: 'json_object' } }))).toEqual([claude, gpt]);
    expect(claude.model.config.capabilities.structured_outputs).toBe(true);
  });

  it('takes the catalog max_output_tokens of each model', () => {
    expect(filterCapableCandidates([gpt, claude], req({ max_tokens: 64_000 }))).toEqual([claude]);
    expect(refusal([gpt], { max_tokens: 32_769 }).message).toContain('above the 32768 output tokens the model "gpt-4.1-mini" allows');
  });

  it('keeps the capable candidates in order and drops the others', () => {
    const gptBatch = candidate(gpt.model.config, 'batch');
    expect(filterCapableCandidates([gpt, bare, claude, gptBatch], req({ response_format: { type: 'json_object' } }))).toEqual([gpt, claude, gptBatch]);
  });

  it('when none is capable, refuses with the first candidate\'s reason', () => {
    const err = refusal([bare, toolsOnly], { tools: [tool], response_format: { type: 'json_object' } });
    expect(err.options.param).toBe('tools');
    expect(err.message).toContain('"bare"');
    expect(refusal([toolsOnly, bare], { tools: [tool], response_format: { type: 'json_object' } }).message).toContain('"tools-only" does not support JSON output');
  });
});
