import { GatewayError } from '../errors/gateway-error';
import { SEARCH_BACKEND_TYPES, type ResolvedSearchBackend, type SearchCapabilities } from '../providers/search/search-adapter';
import type { RouteReceipt } from '../billing/usage-record-columns';
import type { SearchRequest } from './search-request-schema';

/** A feature a request needs or prefers, by the capability that gives it and the field that asked for it. */
interface Feature {
  capability: keyof SearchCapabilities;
  field: string;
}

/** What the backends are to be tried in, and what the receipt says of the choice before any is tried. */
export interface BackendPlan {
  selection: RouteReceipt['selection'];
  candidates: ResolvedSearchBackend[];
  rejected: RouteReceipt['rejected'];
  decisionReason: string;
  /** Preferred features, to tell whether the backend that answered lacked one (`downgraded`). */
  preferred: Feature[];
}

/**
 * Chooses the backends to try, in order. Features a request needs
 * (`include_answer`, `search_depth: advanced`) rule out backends without
 * them; features it prefers (a region, language or time filter the backend
 * maps; page contents for `include_raw_content`) put the backends that have
 * them first; otherwise the configured order stands. `auto` skips backends
 * marked unhealthy unless nothing else can serve; a named backend (id, name
 * or provider) is tried even then, since the client asked for it, and one
 * that cannot serve the request is a 400 naming what it lacks.
 */
export function planBackends(
  request: SearchRequest,
  configured: readonly ResolvedSearchBackend[],
  capabilitiesOf: (backend: ResolvedSearchBackend) => SearchCapabilities,
  skipReason: (backendId: string) => string | undefined,
): BackendPlan {
  const needed = neededFeatures(request);
  const preferred = preferredFeatures(request);
  const lacking = (b: ResolvedSearchBackend) => needed.filter((f) => !capabilitiesOf(b)[f.capability]).map((f) => f.field);
  const named = request.backend !== 'auto';
  const pool = named ? namedBackends(request.backend, configured) : [...configured];
  const rejected: RouteReceipt['rejected'] = [];
  const capable: ResolvedSearchBackend[] = [];
  for (const b of pool) {
    const missing = lacking(b);
    if (missing.length) rejected.push({ backend: b.id, provider: b.type, reason: `lacks ${missing.join(' and ')}` });
    else capable.push(b);
  }
  if (!capable.length) throw unservable(request, named, needed, pool);
  const healthy = named ? capable : capable.filter((b) => {
    const reason = skipReason(b.id);
    if (reason) rejected.push({ backend: b.id, provider: b.type, reason });
    return !reason;
  });
  // Every capable backend failing lately: trying them beats refusing outright.
  const trying = healthy.length ? healthy : capable;
  const score = (b: ResolvedSearchBackend) => preferred.filter((f) => capabilitiesOf(b)[f.capability]).length;
  const candidates = trying.map((b, i) => ({ b, i, s: score(b) })).sort((x, y) => y.s - x.s || x.i - y.i).map((x) => x.b);
  if (!named) {
    const configuredTypes = new Set(configured.map((b) => b.type));
    for (const type of SEARCH_BACKEND_TYPES) if (!configuredTypes.has(type)) rejected.push({ backend: type, provider: type, reason: 'not configured' });
  }
  return {
    selection: named ? 'named' : 'auto',
    candidates,
    rejected,
    preferred,
    decisionReason: reasonFor(request, named, needed, preferred, candidates, healthy.length === 0, capabilitiesOf),
  };
}

/** Whether the backend that answered lacks a feature the request preferred. */
export function isDowngraded(plan: BackendPlan, backend: ResolvedSearchBackend, capabilitiesOf: (b: ResolvedSearchBackend) => SearchCapabilities): boolean {
  return plan.preferred.some((f) => !capabilitiesOf(backend)[f.capability]);
}

function neededFeatures(request: SearchRequest): Feature[] {
  const needed: Feature[] = [];
  if (request.include_answer) needed.push({ capability: 'answer', field: 'include_answer' });
  if (request.search_depth === 'advanced') needed.push({ capability: 'advancedDepth', field: 'search_depth: advanced' });
  return needed;
}

function preferredFeatures(request: SearchRequest): Feature[] {
  const preferred: Feature[] = [];
  if (request.region) preferred.push({ capability: 'region', field: 'region' });
  if (request.language) preferred.push({ capability: 'language', field: 'language' });
  if (request.time_range) preferred.push({ capability: 'timeRange', field: 'time_range' });
  if (request.include_raw_content) preferred.push({ capability: 'rawContent', field: 'include_raw_content' });
  return preferred;
}

/** A backend id or name first (exact), then every backend of a provider. */
function namedBackends(wanted: string, configured: readonly ResolvedSearchBackend[]): ResolvedSearchBackend[] {
  const byId = configured.filter((b) => b.id === wanted || b.name === wanted);
  if (byId.length) return byId;
  const byType = configured.filter((b) => b.type === wanted);
  if (byType.length) return byType;
  const known = configured.map((b) => (b.name === b.id ? b.id : `${b.id} (${b.name})`));
  const what = (SEARCH_BACKEND_TYPES as readonly string[]).includes(wanted) ? `The ${wanted} search provider is not configured on this gateway` : `No search backend is named "${wanted}"`;
  throw new GatewayError('search_backend_not_found', `${what}. Use "auto"${known.length ? `, or one of: ${known.join(', ')}` : ''}.`, {
    param: 'backend', details: { configured: configured.map((b) => ({ id: b.id, name: b.name, provider: b.type })) },
  });
}

function unservable(request: SearchRequest, named: boolean, needed: Feature[], pool: ResolvedSearchBackend[]): GatewayError {
  const fields = needed.map((f) => f.field).join(' and ');
  if (!pool.length) return new GatewayError('search_unavailable', 'No search backend is configured on this gateway. The operator can add one under search.backends in the gateway config.');
  const message = named
    ? `Search backend "${request.backend}" cannot serve this request: it lacks ${fields}. Leave those out, or use backend "auto".`
    : `No configured search backend offers ${fields}. Leave ${needed.length > 1 ? 'them' : 'it'} out, or ask the operator to configure a backend that has ${needed.length > 1 ? 'them' : 'it'} (tavily).`;
  return new GatewayError('search_backend_unsupported', message, { param: named ? 'backend' : needed[0]!.field.split(':')[0], details: { lacks: needed.map((f) => f.field) } });
}

function reasonFor(
  request: SearchRequest,
  named: boolean,
  needed: Feature[],
  preferred: Feature[],
  candidates: ResolvedSearchBackend[],
  allUnhealthy: boolean,
  capabilitiesOf: (b: ResolvedSearchBackend) => SearchCapabilities,
): string {
  const parts = [named ? `named "${request.backend}"` : 'auto'];
  if (needed.length) parts.push(`${needed.map((f) => f.field).join(' and ')} needs a backend that has ${needed.length > 1 ? 'them' : 'it'}`);
  const first = candidates[0]!;
  const firstHas = preferred.filter((f) => capabilitiesOf(first)[f.capability]).map((f) => f.field);
  if (firstHas.length) parts.push(`${firstHas.join(', ')} preferred ${first.id}`);
  else if (preferred.length) parts.push(`no candidate maps ${preferred.map((f) => f.field).join(', ')}`);
  if (!firstHas.length || !preferred.length) parts.push(`${first.id} is first in the configured order`);
  if (allUnhealthy) parts.push('every capable backend failed lately; trying them anyway');
  return parts.join('; ');
}
