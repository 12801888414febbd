import { createHash } from 'node:crypto';
import type { McpServerConfig, ModelConfig, SearchBackendConfig } from '../config/gateway-config-schema';
import { parseUnitPrice, type UnitPrice } from './price';

/**
 * When a model lists no price for a dimension, the dimension is billed like
 * the one it is a kind of: reasoning is output, cache traffic is input.
 */
const FALLBACK_DIMENSION: Record<string, string> = {
  reasoning: 'output',
  cache_read: 'input',
  cache_write_5m: 'input',
  cache_write_1h: 'input',
  cache_miss: 'input',
};

/** The lane search prices are kept under (see `searchPricedAs`). */
export const WEB_SEARCH_LANE = 'web_search';

/**
 * Whose prices a search on a backend is billed at: the backend's
 * `search_price` per unit of the `web_search` dimension, under a name no
 * model can have (model ids start with a letter or digit).
 */
export function searchPricedAs(backendId: string): { modelId: string; lane: string } {
  return { modelId: `@search/${backendId}`, lane: WEB_SEARCH_LANE };
}

/** The dimension a call of an MCP tool is billed under: one per `tools/call`. */
export const MCP_CALL_DIMENSION = 'mcp_calls';

/**
 * Whose price a call of an MCP server's tool is billed at: the tool's own
 * (`tool_prices`) or the server's `price_per_call`, per `mcp_calls`, under
 * a name no model can have.
 */
export function mcpPricedAs(server: Pick<McpServerConfig, 'name' | 'tool_prices'>, tool: string): { modelId: string; lane: string } {
  return { modelId: `@mcp/${server.name}`, lane: Object.hasOwn(server.tool_prices, tool) ? `tool:${tool}` : 'call' };
}

/**
 * All prices of the catalog by model and lane (and of each search backend,
 * see `searchPricedAs`, and MCP server, see `mcpPricedAs`), with a digest
 * that names this exact table.
 */
export class PriceTable {
  private readonly prices = new Map<string, Map<string, UnitPrice>>();
  readonly digest: string;
  readonly canonical: Record<string, Record<string, string>>;

  constructor(models: ModelConfig[], searchBackends: SearchBackendConfig[] = [], mcpServers: McpServerConfig[] = []) {
    const canonical: Record<string, Record<string, string>> = {};
    for (const server of mcpServers) {
      const perCall: Array<[lane: string, usd: string]> = Object.entries(server.tool_prices).map(([tool, usd]) => [`tool:${tool}`, usd]);
      if (server.price_per_call !== undefined) perCall.push(['call', server.price_per_call]);
      for (const [lane, usd] of perCall) {
        const key = priceKey(`@mcp/${server.name}`, lane);
        const price = parseUnitPrice({ usd, per: 1 });
        this.prices.set(key, new Map([[MCP_CALL_DIMENSION, price]]));
        canonical[key] = { [MCP_CALL_DIMENSION]: `${price.usd}/${price.per}` };
      }
    }
    for (const backend of searchBackends) {
      if (backend.search_price === undefined) continue;
      const { modelId, lane } = searchPricedAs(backend.id);
      const price = parseUnitPrice({ usd: backend.search_price, per: 1 });
      this.prices.set(priceKey(modelId, lane), new Map([['web_search', price]]));
      canonical[priceKey(modelId, lane)] = { web_search: `${price.usd}/${price.per}` };
    }
    for (const model of models) {
      const lanes = new Map<string, ModelConfig['pricing']>();
      for (const route of model.routes) lanes.set(route.lane, { ...model.pricing, ...route.pricing });
      for (const [lane, pricing] of lanes) {
        const key = priceKey(model.id, lane);
        const parsed = new Map<string, UnitPrice>();
        const shown: Record<string, string> = {};
        for (const dim of Object.keys(pricing).sort()) {
          const price = parseUnitPrice(pricing[dim]);
          parsed.set(dim, price);
          shown[dim] = `${price.usd}/${price.per}`;
        }
        this.prices.set(key, parsed);
        canonical[key] = shown;
      }
    }
    this.canonical = Object.fromEntries(Object.entries(canonical).sort(([a], [b]) => a.localeCompare(b)));
    this.digest = createHash('sha256').update(JSON.stringify(this.canonical)).digest('hex');
  }

  /** The price of one dimension on a model's lane, or null when the model has none for it. */
  priceOf(modelId: string, lane: string, dimension: string): UnitPrice | null {
    const lanePrices = this.prices.get(priceKey(modelId, lane));
    if (!lanePrices) return null;
    const direct = lanePrices.get(dimension);
    if (direct) return direct;
    const fallback = FALLBACK_DIMENSION[dimension];
    return (fallback && lanePrices.get(fallback)) || null;
  }

  lanePrices(modelId: string, lane: string): ReadonlyMap<string, UnitPrice> | undefined {
    return this.prices.get(priceKey(modelId, lane));
  }
}

function priceKey(modelId: string, lane: string): string {
  return `${modelId}@${lane}`;
}
