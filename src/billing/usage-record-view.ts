import type { z } from 'zod';
import type { UsageRecord } from '../generated/prisma/client';
import { lineItemsSchema, type LineItem } from './line-items';
import { decisionColumn, deliveryOf, dimensionsColumn, mcpColumn, measurementColumn, providerUsageColumn, routingColumn, searchColumn, type DecisionStage, type Delivery, type McpToolCall, type SearchUsage } from './usage-record-columns';

/** The public `usage.request` object of `GET /api/usage/requests/{id}`; internal routing stays out. */
export interface UsageRecordView {
  object: 'usage.request';
  id: string;
  created_at: number;
  model: string;
  endpoint: string;
  usage: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    measurement: z.infer<typeof measurementColumn>;
    dimensions: z.infer<typeof dimensionsColumn>;
  };
  billing: {
    currency: string;
    amount_microusd: number;
    pricing_version: number;
    line_items: LineItem[];
    /** `final`; for tasks `held` (charged on completion), `settled` or `refunded`; `refunded` too once a settled charge was refunded in full (a `refund` line item per refund). */
    state: string;
    held_microusd?: number;
    settled_at?: number | null;
  };
  /** Public status and timing only: `status_code`, `total_duration_ms`, `ttft_ms`, `was_streaming`. */
  routing: z.infer<typeof routingColumn>;
  /** What the client received of the response (null when the record has no routing, so no status). */
  delivery: Delivery | null;
  provider_usage: z.infer<typeof providerUsageColumn>;
  log_id: string;
  /** Present when a temporary credential made the request: it, and the key that minted it. */
  credential?: { id: string; parent_key_id: string };
  /** Present on web search requests: queries, billed units, the backend and the route receipt the client received. */
  search?: SearchUsage;
  /** Present on decision requests: the stage, its prompt version and the other stage's record. */
  decision?: DecisionStage;
  /** Present on MCP tool calls: the server, the tool and its outcome. */
  mcp?: McpToolCall;
}

export function toUsageRecordView(row: UsageRecord): UsageRecordView {
  const routing = routingColumn.parse(row.routing);
  return {
    object: 'usage.request',
    id: row.id,
    created_at: Math.floor(row.createdAt.getTime() / 1000),
    model: row.model,
    endpoint: row.endpoint,
    usage: {
      prompt_tokens: row.promptTokens,
      completion_tokens: row.completionTokens,
      total_tokens: row.totalTokens,
      measurement: measurementColumn.parse(row.measurement),
      dimensions: dimensionsColumn.parse(row.dimensions),
    },
    billing: {
      currency: row.currency,
      // Safe as a JSON number: a single request would need to cost $9 billion to lose precision.
      amount_microusd: Number(row.amountMicrousd),
      pricing_version: row.pricingVersion,
      line_items: lineItemsSchema.parse(row.lineItems),
      state: row.billingState,
      ...(row.heldMicrousd !== null ? { held_microusd: Number(row.heldMicrousd), settled_at: row.settledAt ? Math.floor(row.settledAt.getTime() / 1000) : null } : {}),
    },
    routing,
    delivery: routing && deliveryOf(routing.status_code, row.delivery),
    provider_usage: providerUsageColumn.parse(row.providerUsage),
    log_id: row.logId,
    ...(row.parentKeyId ? { credential: { id: row.keyId, parent_key_id: row.parentKeyId } } : {}),
    ...(row.search !== null ? { search: searchColumn.parse(row.search)! } : {}),
    ...(row.decision !== null ? { decision: decisionColumn.parse(row.decision)! } : {}),
    ...(row.mcp !== null ? { mcp: mcpColumn.parse(row.mcp)! } : {}),
  };
}
