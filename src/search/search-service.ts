import type { Span } from '@opentelemetry/api';
import { searchPricedAs, WEB_SEARCH_LANE } from '../billing/price-table';
import type { PricedRoute } from '../billing/spend-estimate';
import type { RouteReceipt, SearchUsage } from '../billing/usage-record-columns';
import type { Catalog } from '../catalog/catalog';
import { parseRequest } from '../errors/parse-request';
import { attemptRoutes, settlementOf, type RouteAttempt, type RouteCandidate } from '../model-call/route-attempts';
import type { RequestContext } from '../model-call/request-context';
import { toGatewayError } from '../model-call/to-gateway-error';
import type { Routing } from '../model-call/routing';
import type { ResolvedSearchBackend, SearchHit } from '../providers/search/search-adapter';
import { searchAdapterFor } from '../providers/search/search-registry';
import { UpstreamError } from '../providers/upstream-error';
import { BackendHealth } from './backend-health';
import { isDowngraded, planBackends } from './backend-selection';
import { domainScope, withinScope } from './domain-scope';
import { checkedProviderOptions } from './provider-options';
import { searchRequestSchema, type SearchRequest } from './search-request-schema';
import { searchUsage } from './search-usage';

export const SEARCH_ENDPOINT = '/v1/search';

/** The most units one query can bill (a Tavily advanced search), what its hold covers. */
const MAX_UNITS_PER_QUERY = 2;

/** `POST /v1/search`'s answer. */
export interface SearchResponse {
  query: string;
  results: SearchHit[];
  /** The backend's own answer, only when `include_answer` was asked and one came back. */
  answer?: string | null;
  usage: { web_search_requests: number; web_search_billable_units: number };
  provider_trace: { backend: string; backend_id: string };
  route_receipt: RouteReceipt;
  /** The chosen backend's answer as it came, with `include_provider_payload`. */
  provider_payload?: unknown;
}

/** A search backend as the route-attempt helper sees it: priced under its own name, called by its id. */
interface SearchCandidate extends RouteCandidate {
  backend: ResolvedSearchBackend;
}

const capabilitiesOf = (backend: ResolvedSearchBackend) => searchAdapterFor(backend.type).capabilities;

/**
 * Web and news search over the configured backends: validation, the key's
 * domain allowlist, backend selection with fallback (on the shared
 * route-attempt helper), one usage record with the billed units and the
 * route receipt.
 */
export class SearchService {
  private readonly health = new BackendHealth();

  constructor(
    private readonly catalog: Catalog,
    private readonly routing: Routing,
  ) {}

  async search(ctx: RequestContext, raw: unknown): Promise<SearchResponse> {
    const asked = raw && typeof raw === 'object' ? (raw as { backend?: unknown }).backend : undefined;
    ctx.ticket.noteRequestedModel(`search:${typeof asked === 'string' ? asked : 'auto'}`);
    const req = parseRequest(searchRequestSchema, raw);
    const scope = domainScope(ctx.principal, req.include_domains, req.exclude_domains);
    const plan = planBackends(req, this.catalog.searchBackends(), capabilitiesOf, (id) => this.health.skipReason(id));
    const candidates: SearchCandidate[] = plan.candidates.map((backend) => ({
      model: { id: searchPricedAs(backend.id).modelId },
      route: { provider: { name: backend.id }, upstreamModel: backend.type, lane: WEB_SEARCH_LANE },
      backend,
    }));
    // Every candidate's options are checked before any hold or call: a fallback never meets a refused option.
    const options = new Map(plan.candidates.map((backend) => [backend.id, checkedProviderOptions(req.provider_options, backend, searchAdapterFor(backend.type).options)]));
    if (ctx.principal.spendControlled) {
      await ctx.spend.place(candidates.map(pricedRouteOf), { promptTokens: 0, outputCap: 0, dimensions: [{ name: 'web_search', quantity: MAX_UNITS_PER_QUERY, unit: 'units' }] });
    }
    const rejected = [...plan.rejected];
    const receipt = (attempt: RouteAttempt<SearchCandidate>, answered: boolean): RouteReceipt => ({
      selection: plan.selection,
      selected_backend: answered ? attempt.candidate.backend.id : null,
      chose_provider: answered ? attempt.candidate.backend.type : null,
      candidates: plan.candidates.map((b) => b.id),
      rejected: [...rejected],
      downgraded: answered && isDowngraded(plan, attempt.candidate.backend, capabilitiesOf),
      fallback_count: attempt.number - 1,
      decision_reason: plan.decisionReason,
    });

    return attemptRoutes(ctx, this.routing, candidates, async (attempt) => {
      const { backend } = attempt.candidate;
      const answer = await this.callBackend(ctx, req, scope, backend, options.get(backend.id), attempt.span);
      const results = withinScope(answer.results, scope).slice(0, Math.min(req.max_results, backend.maxResults));
      const routeReceipt = receipt(attempt, true);
      const search: SearchUsage = { backend: backend.type, web_search_requests: 1, web_search_billable_units: answer.billableUnits, route_receipt: routeReceipt };
      ctx.logger.info('search routed', { backend: backend.id, provider: backend.type, units: answer.billableUnits, results: results.length, dropped_outside_scope: answer.results.length - results.length, route_receipt: routeReceipt });
      await ctx.ticket.settle({
        ...settlementOf(attempt, { statusCode: 200, usage: searchUsage(backend.type, answer.billableUnits, { billable_units: answer.billableUnits }), charge: true, ttftMs: null, wasStreaming: false, errorCode: null }),
        search,
      });
      return {
        query: req.query,
        results,
        ...(req.include_answer ? { answer: answer.answer } : {}),
        usage: { web_search_requests: 1, web_search_billable_units: answer.billableUnits },
        provider_trace: { backend: backend.type, backend_id: backend.id },
        route_receipt: routeReceipt,
        ...(req.include_provider_payload ? { provider_payload: answer.payload } : {}),
      };
    }, {
      // Backends fall back to one another within the search's time limit; the last one is not tried twice.
      retryLastRoute: false,
      onFallback: (err, attempt) => rejected.push(failureEntry(err, attempt.candidate.backend)),
      failedRecord: (err, attempt) => {
        if (!ctx.signal.aborted) rejected.push(failureEntry(err, attempt.candidate.backend));
        return { search: { backend: null, web_search_requests: 0, web_search_billable_units: 0, route_receipt: receipt(attempt, false) } };
      },
    });
  }

  /** One backend call; its outcome feeds the backend's health (a client's own mistake does not). */
  private async callBackend(ctx: RequestContext, req: SearchRequest, scope: ReturnType<typeof domainScope>, backend: ResolvedSearchBackend, providerOptions: Record<string, unknown> | undefined, span: Span | undefined) {
    try {
      const answer = await searchAdapterFor(backend.type).search({
        backend,
        query: req.query,
        type: req.type,
        maxResults: Math.min(req.max_results, backend.maxResults),
        region: req.region,
        language: req.language,
        timeRange: req.time_range,
        searchDepth: req.search_depth,
        includeAnswer: req.include_answer,
        includeRawContent: req.include_raw_content,
        includeDomains: scope.include,
        excludeDomains: scope.exclude,
        providerOptions,
        signal: ctx.signal,
        span,
      });
      this.health.answered(backend.id);
      return answer;
    } catch (err) {
      if (err instanceof UpstreamError && err.details.retryable && !ctx.signal.aborted) this.health.failed(backend.id);
      throw err;
    }
  }
}

function pricedRouteOf(candidate: SearchCandidate): PricedRoute {
  return { ...searchPricedAs(candidate.backend.id), maxInputTokens: 0, maxOutputTokens: 0, contextWindow: 0 };
}

/** A backend that failed, for the receipt: its public error code and what the backend said. */
function failureEntry(err: unknown, backend: ResolvedSearchBackend): RouteReceipt['rejected'][number] {
  const gatewayError = toGatewayError(err);
  const reason = gatewayError ? `failed: ${gatewayError.code}: ${gatewayError.message}` : 'failed';
  return { backend: backend.id, provider: backend.type, reason: reason.slice(0, 300) };
}

