import { z } from 'zod';

/**
 * The JSON columns of `usage_records`, read through these schemas at the
 * data-layer edge, so a record reaches REST and GraphQL in a known shape.
 */
const measurementSource = z.enum(['provider', 'local_estimate', 'unavailable']);

export const measurementColumn = z
  .object({ input: measurementSource, output: measurementSource, reasoning: measurementSource.optional() })
  .nullable();

export const dimensionsColumn = z.array(z.object({ name: z.string(), quantity: z.number(), unit: z.string() }));

export const routingColumn = z
  .object({ status_code: z.number().int(), total_duration_ms: z.number(), ttft_ms: z.number().nullable(), was_streaming: z.boolean() })
  .nullable();

/**
 * What the client received of a response whose record was committed before
 * its body went out: `sent`, the whole response was handed to the
 * connection; `client_gone`, the client left before its end. A field of the
 * record of its own: the spec's `routing` carries status and timing only.
 */
export type Delivery = 'sent' | 'client_gone';

export function deliveryOf(statusCode: number, stored: string | null): Delivery {
  return stored === 'client_gone' || statusCode === 499 ? 'client_gone' : 'sent';
}

export const providerUsageColumn = z.object({ family: z.string(), raw_fields: z.record(z.string(), z.unknown()) });

/** How a search was routed (spec: `route_receipt`), as the client received it. */
export const routeReceiptSchema = z.object({
  /** `auto`, or `named` when the client named a backend or provider. */
  selection: z.enum(['auto', 'named']),
  /** The backend id that answered; null when none did. */
  selected_backend: z.string().nullable(),
  /** The provider (protocol) of that backend. */
  chose_provider: z.string().nullable(),
  /** Backend ids in the order they were to be tried. */
  candidates: z.array(z.string()),
  /** Backends left out or that failed, each with why. */
  rejected: z.array(z.object({ backend: z.string(), provider: z.string().nullable(), reason: z.string() })),
  /** The backend that answered lacks something the request preferred (raw content, a region, language or time filter). */
  downgraded: z.boolean(),
  fallback_count: z.number().int(),
  decision_reason: z.string(),
});

export type RouteReceipt = z.infer<typeof routeReceiptSchema>;

/** The `search` column: what a web search request was answered with. */
export const searchColumn = z
  .object({
    backend: z.string().nullable(),
    web_search_requests: z.number().int(),
    web_search_billable_units: z.number().int(),
    route_receipt: routeReceiptSchema,
  })
  .nullable();

export type SearchUsage = NonNullable<z.infer<typeof searchColumn>>;

/** The `decision` column: which stage of a decision request a record is, and the other stage's record. */
export const decisionColumn = z
  .object({
    stage: z.enum(['question_generation', 'evaluation']),
    prompt_version: z.string(),
    /** The evaluation's record for a generation; the generation's for an evaluation of generated questions. */
    linked_request_id: z.string().nullable(),
    /** Where the evaluated questions came from. */
    questions: z.enum(['explicit', 'generated']).optional(),
  })
  .nullable();

export type DecisionStage = NonNullable<z.infer<typeof decisionColumn>>;

/**
 * The `mcp` column: the tool an MCP `tools/call` named (on its server) and
 * how it went: `ok`, `tool_error` (the tool answered with `isError`), or
 * `failed` (no answer: the server was down, slow, malformed, or the call
 * was refused before it).
 */
export const mcpColumn = z
  .object({
    server: z.string(),
    tool: z.string(),
    outcome: z.enum(['ok', 'tool_error', 'failed']),
  })
  .nullable();

export type McpToolCall = NonNullable<z.infer<typeof mcpColumn>>;
