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

/** What the client received of a response whose record was committed before its body went out. */
export type Delivery = 'sent' | 'client_gone';

export function deliveryOf(statusCode: number, stored: string | null): Delivery {
  return stored === 'client_gone' || statusCode === 499 ? 'client_gone' : 'sent';
}

export const providerUsageColumn = z.object({ family: z.string(), raw_fields: z.record(z.string(), z.unknown()) });
