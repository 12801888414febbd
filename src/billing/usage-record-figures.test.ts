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

  it('writes the same skeleton text as JSON.stringify of the skeleton as a tree, which the stored shapes were recognised by', () => {
    // The skeleton as the gateway built it before it wrote the text directly: a tree of marks, then JSON.stringify.
    const tree = (value: unknown, keep: boolean, figures: unknown[]): unknown => {
      if (typeof value === 'number' || (typeof value === 'string' && !(keep && !value.startsWith('\u0001')))) return `\u0001${figures.push(value) - 1}`;
      if (Array.isArray(value)) return value.map((v) => tree(v, keep, figures));
      if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [k, tree(v, keep, figures)]));
      return value;
    };
    const keeps = { measurement: true, dimensions: true, line_items: true, routing: true, served_by: true, provider_usage: false, search: false, decision: false, mcp: false };
    const odd: UsageRecordParts = {
      ...parts,
      routing: { status_code: 200, ttft_ms: null, was_streaming: true, note: undefined, nested: { '10': 'x', '2': 'y', b: [1, undefined, null, 'z', () => 1], 'quote"\\': 'a\u0000b\n' } },
      search: { queries: ['é "q"', '\u2028'], empty: {}, list: [], flag: false, at: new Date(0) },
      mcp: { server: 'weather', tool: 'forecast', outcome: 'ok', skipped: () => 1 },
    };
    // More figures than the marks written once, more distinct keys and kept strings than the cache of quoted text keeps.
    const many: UsageRecordParts = {
      ...parts,
      provider_usage: { counts: Array.from({ length: 100 }, (_, i) => i) },
      routing: Object.fromEntries(Array.from({ length: 2_100 }, (_, i) => [`k"${i}`, `v\n${i}`])),
    };
    for (const p of [parts, odd, many]) {
      const figures: unknown[] = [];
      const expected = JSON.stringify(Object.fromEntries(Object.entries(keeps).map(([name, keep]) => [name, tree(p[name as keyof UsageRecordParts] ?? null, keep, figures)])));
      const split = splitUsageRecordParts(p);
      expect(split.skeleton).toBe(expected);
      expect(split.figures).toEqual(figures);
    }
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
