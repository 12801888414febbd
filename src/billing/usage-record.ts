import type { Span } from '@opentelemetry/api';
import type { Principal } from '../keys/principal';
import { billDimensions } from './line-items';
import type { PriceTable } from './price-table';
import type { UsageDimension } from './usage-dimensions';
import type { DecisionStage, McpToolCall, SearchUsage } from './usage-record-columns';
import type { LeaseShare } from './spend-hold';

export type MeasurementSource = 'provider' | 'local_estimate' | 'unavailable';

/** Token usage of one request, normalised and with where each figure came from. */
export interface MeasuredUsage {
  promptTokens: number;
  completionTokens: number;
  dimensions: UsageDimension[];
  /** `reasoning` appears when the split of output into reasoning was counted by the gateway, not reported. */
  measurement: { input: MeasurementSource; output: MeasurementSource; reasoning?: MeasurementSource };
  providerUsage: { family: string; raw_fields: Record<string, unknown> };
}

export interface PublicRouting {
  status_code: number;
  total_duration_ms: number;
  ttft_ms: number | null;
  was_streaming: boolean;
}

/** Internal only: which route served the request. Kept for operators, never returned by the API. */
export interface ServedBy {
  provider: string;
  upstream_model: string;
  lane: string;
  attempts: number;
}

export interface UsageRecordInput {
  requestId: string;
  principal: Principal;
  createdAt: Date;
  /** The model or route name the client asked for. */
  model: string;
  endpoint: string;
  usage: MeasuredUsage | null;
  /** The catalog model and lane whose prices apply; null when no model served the request. */
  pricedAs: { modelId: string; lane: string } | null;
  /** Failed requests are recorded with their usage but not charged. */
  charge: boolean;
  routing: PublicRouting;
  servedBy: ServedBy | null;
  errorCode: string | null;
  /** For an asynchronous task: the charge is held until the task ends. */
  heldForTask?: string;
  /** The ledger hold the record's charge ends (settles, or releases when nothing is charged). */
  holdId?: bigint | null;
  /** The call's part of a lease, when its hold was taken from one: told the charge once the record is handed to the writer. */
  leaseShare?: LeaseShare;
  /** A web search: its queries, units, backend and route receipt. */
  search?: SearchUsage;
  /** A decision request's stage. */
  decision?: DecisionStage;
  /** An MCP tool call: the server, the tool and its outcome. */
  mcp?: McpToolCall;
  /** The request's trace span (traces on): the record's figures are set on it. */
  span?: Span;
}

/** A usage record row as stored (the Prisma create input). */
export interface UsageRecordRow {
  id: string;
  keyId: string;
  accountId: string;
  createdAt: Date;
  model: string;
  endpoint: string;
  statusCode: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  measurement: MeasuredUsage['measurement'] | null;
  dimensions: UsageDimension[];
  currency: string;
  amountMicrousd: bigint;
  pricingVersion: number;
  lineItems: ReturnType<typeof billDimensions>['lineItems'];
  routing: PublicRouting;
  providerUsage: MeasuredUsage['providerUsage'];
  logId: string;
  servedBy: ServedBy | null;
  errorCode: string | null;
  billingState: 'final' | 'held';
  taskId: string | null;
  heldMicrousd: bigint | null;
  holdId: bigint | null;
  /** The key that minted the temporary credential (keyId) the request came with. */
  parentKeyId: string | null;
  /** Absent on rows spooled before searches were recorded. */
  search?: SearchUsage | null;
  decision?: DecisionStage | null;
  mcp?: McpToolCall | null;
}

export function buildUsageRecord(input: UsageRecordInput, prices: PriceTable, pricingVersion: number): UsageRecordRow {
  const usage = input.usage;
  const dims = usage?.dimensions ?? [];
  const bill = input.charge && input.pricedAs
    ? billDimensions(prices, input.pricedAs.modelId, input.pricedAs.lane, dims)
    : { lineItems: [], amountMicroUsd: 0n };
  return {
    id: input.requestId,
    keyId: input.principal.keyId,
    accountId: input.principal.accountId,
    createdAt: input.createdAt,
    model: input.model,
    endpoint: input.endpoint,
    statusCode: input.routing.status_code,
    promptTokens: usage?.promptTokens ?? 0,
    completionTokens: usage?.completionTokens ?? 0,
    totalTokens: (usage?.promptTokens ?? 0) + (usage?.completionTokens ?? 0),
    measurement: usage?.measurement ?? { input: 'unavailable', output: 'unavailable' },
    dimensions: dims,
    currency: 'USD',
    amountMicrousd: bill.amountMicroUsd,
    pricingVersion,
    lineItems: bill.lineItems,
    routing: input.routing,
    providerUsage: usage?.providerUsage ?? { family: input.servedBy ? 'unknown' : 'none', raw_fields: {} },
    logId: logIdFor(input.requestId),
    servedBy: input.servedBy,
    errorCode: input.errorCode,
    billingState: input.heldForTask ? 'held' : 'final',
    taskId: input.heldForTask ?? null,
    heldMicrousd: input.heldForTask ? bill.amountMicroUsd : null,
    holdId: input.holdId ?? null,
    parentKeyId: input.principal.parentKeyId,
    search: input.search ?? null,
    decision: input.decision ?? null,
    mcp: input.mcp ?? null,
  };
}

/** The request's log line carries this id, so a record leads to its log entry. */
export function logIdFor(requestId: string): string {
  return `log_${requestId.replace(/^req_/, '')}`;
}
