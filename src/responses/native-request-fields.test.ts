import { GatewayError } from '../errors/gateway-error';
import { checkNativeServable, nativeRequestBody } from './native-request-fields';
import { responsesRequestSchema } from './responses-request-schema';

const raw = (fields: object): Record<string, unknown> => ({ model: 'gpt-4.1-mini', input: 'Hi', ...fields });
const parse = (fields: object) => responsesRequestSchema.parse(raw(fields));
const scoped = (value: string) => `scoped(${value})`;
const bodyOf = (fields: object, upstreamStore = false) => nativeRequestBody(raw(fields), parse(fields).input, { scoped, upstreamStore });

function refusal(fields: object): GatewayError {
  try {
    checkNativeServable(parse(fields), () => false);
  } catch (err) {
    if (err instanceof GatewayError) return err;
    throw err;
  }
  throw new Error(`${JSON.stringify(fields)} was not refused`);
}

describe('the fields a native Responses route forwards', () => {
  it('forwards the fields it knows and drops any other', () => {
    const fields = {
      instructions: 'Be brief', max_output_tokens: 100, temperature: 0.5, top_p: 0.9, reasoning: { effort: 'low' }, text: { format: { type: 'text' } },
      metadata: { a: 'b' }, truncation: 'auto', service_tier: 'auto', include: ['reasoning.encrypted_content'], parallel_tool_calls: false,
      prompt_cache_retention: '24h',
    };
    expect(bodyOf({ ...fields, made_up_field: 1 })).toEqual({ model: 'gpt-4.1-mini', input: 'Hi', store: false, ...fields });
  });

  it('replaces user, safety_identifier and prompt_cache_key with the scoped value', () => {
    expect(bodyOf({ user: 'u', safety_identifier: 's', prompt_cache_key: 'c' })).toMatchObject({ user: 'scoped(u)', safety_identifier: 'scoped(s)', prompt_cache_key: 'scoped(c)' });
  });

  it('sends store false unless the operator lets the upstream store; then as the client asked', () => {
    expect(bodyOf({ store: true }).store).toBe(false);
    expect(bodyOf({}).store).toBe(false);
    expect(bodyOf({ store: true }, true).store).toBe(true);
    expect(bodyOf({ store: false }, true).store).toBe(false);
    expect(bodyOf({}, true)).not.toHaveProperty('store');
  });

  it('takes the dereferenced input, not the one the client sent', () => {
    const input = [{ role: 'user' as const, content: [{ type: 'input_file' as const, file_data: 'data:application/pdf;base64,AAAA', filename: 'a.pdf' }] }];
    expect(nativeRequestBody(raw({}), input, { scoped, upstreamStore: false }).input).toBe(input);
  });

  it.each([
    ['conversation', { conversation: { id: 'conv_1' } }],
    ['prompt', { prompt: { id: 'pmpt_1' } }],
    ['background', { background: true }],
    ['service_tier', { service_tier: 'priority' }],
    ['service_tier', { service_tier: 'flex' }],
    ['tools[1].type', { tools: [{ type: 'function', name: 'f' }, { type: 'file_search', vector_store_ids: ['vs_1'] }] }],
    ['tools[0].type', { tools: [{ type: 'web_search_preview' }] }],
    ['tools[0].type', { tools: [{ type: 'mcp', server_label: 'x', server_url: 'https://example.com' }] }],
    ['tool_choice', { tool_choice: { type: 'image_generation' } }],
    ['include[0]', { include: ['file_search_call.results'] }],
    ['input[1].type', { input: [{ role: 'user', content: 'Hi' }, { type: 'item_reference', id: 'msg_1' }] }],
    ['input[0].type', { input: [{ type: 'web_search_call', id: 'ws_1', status: 'completed' }] }],
  ])('refuses %s as a 400 unsupported_parameter that names it', (param, fields) => {
    const err = refusal(fields);
    expect(err.code).toBe('unsupported_parameter');
    expect(err.status).toBe(400);
    expect(err.options.param).toBe(param);
  });

  it('serves a paid service tier only where the catalog prices it, and never an unknown one', () => {
    const priced = (tier: string) => tier === 'priority';
    expect(() => checkNativeServable(parse({ service_tier: 'priority' }), priced)).not.toThrow();
    expect(() => checkNativeServable(parse({ service_tier: 'scale' }), priced)).toThrow(GatewayError);
    expect(() => checkNativeServable(parse({ service_tier: 'premium' }), () => true)).toThrow(/service tier the catalog does not price/);
  });

  it('lets the defaults of costly and stateful fields through', () => {
    expect(() => checkNativeServable(parse({ service_tier: 'default', background: false, previous_response_id: null, tool_choice: { type: 'function', name: 'f' }, tools: [{ type: 'function', name: 'f' }] }), () => false)).not.toThrow();
  });
});
