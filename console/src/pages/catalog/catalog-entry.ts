/** A catalog entry as the Catalog page reads it from GraphQL (`CatalogEntry`). */

/** Per lane, per usage dimension, as GET /api/models/catalog gives prices. */
export type PriceLanes = Record<string, Record<string, { usd: string; per: number; unit_microusd: number }>>;

export interface CatalogEntry {
  id: string;
  family: string;
  ownedBy: string;
  supportedEndpointTypes: string[];
  supportedEndpoints: Array<{ path: string; mode: string }>;
  contextWindow: number;
  maxOutputTokens: number | null;
  modalities: { input: string[]; output: string[] };
  parameters: { tools: boolean; vision: boolean; streaming: boolean; responseFormat: boolean; reasoning: unknown };
  pricing: { currency: string; version: number; lanes: PriceLanes };
  routing: { lanes: string[]; routes: number };
}

export const CATALOG_QUERY = `query ConsoleCatalog($endpointType: String) {
  catalog(endpointType: $endpointType) {
    id family ownedBy supportedEndpointTypes supportedEndpoints { path mode }
    contextWindow maxOutputTokens modalities { input output }
    parameters { tools vision streaming responseFormat reasoning }
    pricing { currency version lanes } routing { lanes routes }
  }
}`;

export const ENDPOINT_TYPES = ['chat', 'responses', 'embeddings', 'videos', 'decisions'] as const;
