import { figuresInShape, joinUsageRecordParts, splitUsageRecordParts, type UsageRecordParts } from './usage-record-figures';

const parts: UsageRecordParts = {
  measurement: { input: 'provider', output: 'local_estimate' },
  dimensions: [{ name: 'input', quantity: 11, unit: 'tokens' }, { name: 'output', quantity: 66, unit: 'tokens' }],
  line_items: [{ dimension: 'input', quantity: 11, unit_microusd: 0.4, amount_microusd: 4 }, { dimension: 'output', quantity: 66, unit_microusd: 1.6, amount_microusd: 106 }],
  routing: { status_code: 200, total_duration_ms: 11, ttft_ms: null, was_streaming: false },
  served_by: { provider: 'openai', upstream_model: 'gpt-4.1-mini', lane: 'standard', attempts: 1 },
  provider_usage: { family: 'gemini', raw_fields: { promptTokenCount: 5, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 5 }], '7': 'numeric key', tier: '\u0001looks like a mark' } },
  search: null,
  decision: { stage: 'evaluation', prompt_version: 'decision-eval-1', linked_request_id: 'req_f0ec9183356041eaa02f3afb64bebd4e' },
  mcp: null,
};

describe('usage record figures', () => {
  it('splits a record into a skeleton and figures and joins them back exactly', () => {
    const { skeleton, figures } = splitUsageRecordParts(parts);
    expect(joinUsageRecordParts(JSON.parse(skeleton), figures)).toEqual(parts);
    // Numbers and the free text of upstream and client parts are figures; the gateway's own names stay in the shape.
    expect(figures).toEqual(expect.arrayContaining([11, 0.4, 'gemini', 'TEXT', 'numeric key', '\u0001looks like a mark', 'req_f0ec9183356041eaa02f3afb64bebd4e']));
    expect(figures).not.toContain('tokens');
    expect(skeleton).toContain('"gpt-4.1-mini"');
    expect(skeleton).not.toContain('req_f0ec');
  });

  it('gives records that differ only in their figures one shape', () => {
    const other = { ...parts, dimensions: [{ name: 'input', quantity: 999, unit: 'tokens' }, { name: 'output', quantity: 1, unit: 'tokens' }], decision: { ...(parts.decision as object), linked_request_id: 'req_other' } };
    expect(splitUsageRecordParts(other).skeleton).toBe(splitUsageRecordParts(parts).skeleton);
    expect(splitUsageRecordParts({ ...parts, served_by: null }).skeleton).not.toBe(splitUsageRecordParts(parts).skeleton);
  });

  it('lays new figures out in an existing shape, and refuses parts that lack one of its figures', () => {
    const { skeleton } = splitUsageRecordParts(parts);
    const settled = { ...parts, line_items: [{ dimension: 'input', quantity: 5, unit_microusd: 0.4, amount_microusd: 2 }, { dimension: 'output', quantity: 33, unit_microusd: 1.6, amount_microusd: 53 }] };
    const figures = figuresInShape(JSON.parse(skeleton), settled);
    expect(joinUsageRecordParts(JSON.parse(skeleton), figures)).toEqual(settled);
    expect(() => figuresInShape(JSON.parse(skeleton), { ...parts, line_items: [] })).toThrow(/line_items\[0\]/);
  });

  it('reads a skeleton whose keys come in another order (jsonb\'s) by the index in each mark', () => {
    const skeleton = { decision: null, search: null, provider_usage: { raw_fields: { b: '\u00012', a: '\u00011' }, family: '\u00010' } };
    expect(joinUsageRecordParts(skeleton, ['openai', 1, 2]).provider_usage).toEqual({ family: 'openai', raw_fields: { a: 1, b: 2 } });
  });
});
