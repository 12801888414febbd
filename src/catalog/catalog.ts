import type { EndpointType, GatewayConfig, ModelConfig, ModelRouteConfig } from '../config/gateway-config-schema';
import { Errors } from '../errors/errors';
import { mayUseModel, type Principal } from '../keys/principal';
import type { ResolvedProvider } from '../providers/resolved-provider';

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

/** Which model serves a name (model id or route policy), over which routes, for whom. */
export class Catalog {
  private readonly models = new Map<string, CatalogModel>();
  private readonly policies = new Map<string, RoutePolicy>();

  constructor(config: GatewayConfig, providers: Map<string, ResolvedProvider>) {
    for (const model of config.models) {
      this.models.set(model.id, {
        id: model.id,
        config: model,
        routes: model.routes.map((r) => ({ provider: providers.get(r.provider)!, upstreamModel: r.upstream_model, lane: r.lane, config: r })),
      });
    }
    for (const policy of config.routes) this.policies.set(policy.name, { name: policy.name, models: policy.models });
  }

  model(id: string): CatalogModel | undefined {
    return this.models.get(id);
  }

  allModels(): CatalogModel[] {
    return [...this.models.values()];
  }

  allPolicies(): RoutePolicy[] {
    return [...this.policies.values()];
  }

  /**
   * The routes to try for `name` on an endpoint, in order, after checking that
   * the name exists, the key may use it and the model serves the endpoint.
   */
  resolve(name: string, principal: Principal, endpoint: EndpointType, endpointPath: string): Candidate[] {
    const model = this.models.get(name);
    const policy = model ? undefined : this.policies.get(name);
    if (!model && !policy) throw Errors.modelNotFound(name);
    if (!mayUseModel(principal, name)) throw Errors.modelNotAllowed(name);
    const models = model ? [model] : policy!.models.map((id) => this.models.get(id)!);
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
