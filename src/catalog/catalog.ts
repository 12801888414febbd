import type { DecisionSwitches } from '../config/decision-switches';
import type { EndpointType, GatewayConfig, ModelConfig, ModelRouteConfig } from '../config/gateway-config-schema';
import type { Pricing, PricingSource } from '../billing/pricing';
import { Errors } from '../errors/errors';
import { mayUseModel, type Principal } from '../keys/principal';
import type { ResolvedProvider } from '../providers/resolved-provider';
import type { ResolvedMcpServer } from '../providers/mcp/resolved-mcp-server';
import type { ResolvedSearchBackend } from '../providers/search/search-adapter';

export interface CatalogRoute {
  provider: ResolvedProvider;
  upstreamModel: string;
  lane: string;
  config: ModelRouteConfig;
}

export interface CatalogModel {
  id: string;
  config: ModelConfig;
  routes: CatalogRoute[];
}

export interface RoutePolicy {
  name: string;
  models: string[];
}

/** One way to serve a request: a model and one of its routes, in the order to try. */
export interface Candidate {
  model: CatalogModel;
  route: CatalogRoute;
}

/** What the catalog serves: one revision of the config, its providers resolved, its prices registered. */
export interface CatalogContents {
  config: GatewayConfig;
  providers: Map<string, ResolvedProvider>;
  /** The enabled web search backends, in their configured order. */
  searchBackends: ResolvedSearchBackend[];
  /** The enabled upstream MCP servers, in their configured order. */
  mcpServers: ResolvedMcpServer[];
  /** The operator's decision switches: while decisions are off, decision models serve no `decisions` endpoint and a decision-only model is gone. */
  decisions: DecisionSwitches;
  pricing: Pricing;
  /** The catalog revision (1, 2, ...); 0 when the catalog is not stored. */
  revision: number;
  /** Unix seconds when this revision was loaded: the `created` of listings. */
  loadedAt: number;
}

interface Served {
  models: Map<string, CatalogModel>;
  policies: Map<string, RoutePolicy>;
  contents: CatalogContents;
}

/**
 * Which model serves a name (model id or route policy), over which routes,
 * for whom. The contents are replaced whole when the catalog is edited at
 * runtime (see CatalogSync); a request that already resolved its candidates
 * keeps them. Disabled models and disabled provider channels are left out
 * here, so everything that reads the catalog sees them as missing.
 */
export class Catalog implements PricingSource {
  private served: Served;
  private readonly replaced: Array<(contents: CatalogContents) => void> = [];

  constructor(contents: CatalogContents) {
    this.served = serve(contents);
  }

  replace(contents: CatalogContents): void {
    this.served = serve(contents);
    for (const listener of this.replaced) listener(contents);
  }

  /** Calls `listener` with the new contents after each replacement: for what holds resources tied to one revision (the MCP servers' open connections). */
  onReplace(listener: (contents: CatalogContents) => void): void {
    this.replaced.push(listener);
  }

  get contents(): CatalogContents {
    return this.served.contents;
  }

  currentPricing(): Pricing {
    return this.served.contents.pricing;
  }

  model(id: string): CatalogModel | undefined {
    return this.served.models.get(id);
  }

  allModels(): CatalogModel[] {
    return [...this.served.models.values()];
  }

  /** The enabled web search backends, in their configured order (the order `auto` prefers them in). */
  searchBackends(): readonly ResolvedSearchBackend[] {
    return this.served.contents.searchBackends;
  }

  /** The enabled upstream MCP servers, in their configured order. */
  mcpServers(): readonly ResolvedMcpServer[] {
    return this.served.contents.mcpServers;
  }

  /** The route policy of that name, if one of its models is served. */
  policy(name: string): RoutePolicy | undefined {
    return this.served.policies.get(name);
  }

  allPolicies(): RoutePolicy[] {
    return [...this.served.policies.values()];
  }

  /**
   * The routes to try for `name` on an endpoint, in order, after checking that
   * the name exists, the key may use it and the model serves the endpoint.
   */
  resolve(name: string, principal: Principal, endpoint: EndpointType, endpointPath: string): Candidate[] {
    const model = this.served.models.get(name);
    const policy = model ? undefined : this.served.policies.get(name);
    if (!model && !policy) throw Errors.modelNotFound(name);
    if (!mayUseModel(principal, name)) throw Errors.modelNotAllowed(name);
    const models = model ? [model] : policy!.models.map((id) => this.served.models.get(id)!);
    const serving = models.filter((m) => m.config.endpoint_types.includes(endpoint));
    if (!serving.length) throw Errors.endpointNotSupported(name, endpointPath);
    return serving.flatMap((m) => m.routes.map((route) => ({ model: m, route })));
  }

  /** Models and route policies the key may call, for listings. */
  visibleTo(principal: Principal): { models: CatalogModel[]; policies: RoutePolicy[] } {
    return {
      models: this.allModels().filter((m) => mayUseModel(principal, m.id)),
      policies: this.allPolicies().filter((p) => mayUseModel(principal, p.name)),
    };
  }
}

function serve(contents: CatalogContents): Served {
  const { config, providers } = contents;
  const models = new Map<string, CatalogModel>();
  for (const configured of config.models) {
    if (!configured.enabled) continue;
    const model = contents.decisions.enabled ? configured : withoutDecisions(configured);
    if (!model) continue;
    const routes = model.routes
      .filter((r) => config.providers[r.provider]?.enabled !== false)
      .map((r) => ({ provider: providers.get(r.provider)!, upstreamModel: r.upstream_model, lane: r.lane, config: r }));
    // A model whose every provider channel is off cannot be served: it is as gone as a disabled one.
    if (routes.length) models.set(model.id, { id: model.id, config: model, routes });
  }
  const policies = new Map<string, RoutePolicy>();
  for (const policy of config.routes) {
    const serving = policy.models.filter((id) => models.has(id));
    if (serving.length) policies.set(policy.name, { name: policy.name, models: serving });
  }
  return { models, policies, contents };
}

/** A model as served while decisions are off: without its `decisions` endpoint, or gone when that was all it served. */
function withoutDecisions(model: ModelConfig): ModelConfig | undefined {
  if (!model.endpoint_types.includes('decisions')) return model;
  const endpointTypes = model.endpoint_types.filter((t) => t !== 'decisions');
  return endpointTypes.length ? { ...model, endpoint_types: endpointTypes } : undefined;
}
