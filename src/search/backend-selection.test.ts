import type { ResolvedSearchBackend, SearchBackendType, SearchCapabilities } from '../providers/search/search-adapter';
import { planBackends } from './backend-selection';
import { searchRequestSchema } from './search-request-schema';

const backend = (id: string, type: SearchBackendType, name = id): ResolvedSearchBackend => ({
  id, name, type, baseUrl: `http://127.0.0.1/${id}`, apiKey: 'k', timeoutMs: 8000, maxResults: 10, headers: {}, simulated: true,
});
const none: SearchCapabilities = { answer: false, advancedDepth: false, rawContent: false, region: false, language: false, timeRange: false };
const CAPS: Record<SearchBackendType, SearchCapabilities> = {
  tavily: { ...none, answer: true, advancedDepth: true, rawContent: true, timeRange: true },
  serper: { ...none, region: true, language: true, timeRange: true },
  exa: { ...none, rawContent: true, timeRange: true },
  searxng: { ...none, language: true, timeRange: true },
  brave: { ...none, region: true, language: true, timeRange: true },
};
const caps = (b: ResolvedSearchBackend) => CAPS[b.type];
const healthy = () => undefined;
const request = (body: object) => searchRequestSchema.parse({ query: 'q', ...body });

describe('planBackends', () => {
  const configured = [backend('tavily', 'tavily'), backend('serper', 'serper'), backend('searx-a', 'searxng', 'Team A'), backend('searx-b', 'searxng')];

  it('keeps the configured order when nothing is preferred, and lists providers not configured', () => {
    const plan = planBackends(request({}), configured, caps, healthy);
    expect(plan.candidates.map((b) => b.id)).toEqual(['tavily', 'serper', 'searx-a', 'searx-b']);
    expect(plan.rejected).toEqual([
      { backend: 'exa', provider: 'exa', reason: 'not configured' }, { backend: 'brave', provider: 'brave', reason: 'not configured' },
    ]);
  });

  it('puts the backends with more preferred features first, ties in configured order', () => {
    const plan = planBackends(request({ language: 'de', region: 'de' }), configured, caps, healthy);
    expect(plan.candidates.map((b) => b.id)).toEqual(['serper', 'searx-a', 'searx-b', 'tavily']);
    expect(plan.decisionReason).toContain('region, language preferred serper');
  });

  it('names a provider as every backend of it, and a backend by id or name', () => {
    expect(planBackends(request({ backend: 'searxng' }), configured, caps, healthy).candidates.map((b) => b.id)).toEqual(['searx-a', 'searx-b']);
    expect(planBackends(request({ backend: 'Team A' }), configured, caps, healthy).candidates.map((b) => b.id)).toEqual(['searx-a']);
    expect(() => planBackends(request({ backend: 'exa' }), configured, caps, healthy)).toThrow(expect.objectContaining({ code: 'search_backend_not_found', message: expect.stringContaining('The exa search provider is not configured') }));
  });

  it('skips unhealthy backends under auto, but tries them all when nothing else can serve', () => {
    const sick = (id: string) => (id === 'tavily' ? 'unhealthy: 2 failures in a row; tried again in 30 s' : undefined);
    expect(planBackends(request({}), configured, caps, sick).candidates.map((b) => b.id)).toEqual(['serper', 'searx-a', 'searx-b']);
    const answer = planBackends(request({ include_answer: true }), configured, caps, sick);
    expect(answer.candidates.map((b) => b.id)).toEqual(['tavily']);
    expect(answer.decisionReason).toContain('every capable backend failed lately; trying them anyway');
    expect(planBackends(request({ backend: 'tavily' }), configured, caps, sick).candidates.map((b) => b.id)).toEqual(['tavily']);
  });

  it('refuses what no backend can do, and says when none is configured', () => {
    expect(() => planBackends(request({ include_answer: true }), [backend('serper', 'serper')], caps, healthy))
      .toThrow(expect.objectContaining({ code: 'search_backend_unsupported', status: 400, message: expect.stringContaining('No configured search backend offers include_answer') }));
    expect(() => planBackends(request({}), [], caps, healthy)).toThrow(expect.objectContaining({ code: 'search_unavailable', status: 503 }));
  });
});
