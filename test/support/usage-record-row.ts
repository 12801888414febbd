import type { UsageRecordRow } from '../../src/billing/usage-record';

/** A usage record of a small chat call as the writer receives it, charged `amount` micro-USD. */
export function chatRecordRow(fields: { id: string; keyId: string; accountId: string; createdAt: Date; amount?: bigint } & Partial<UsageRecordRow>): UsageRecordRow {
  const { amount = 37n, ...rest } = fields;
  return {
    model: 'gpt-4.1-mini', endpoint: '/v1/chat/completions',
    statusCode: 200, promptTokens: 12, completionTokens: 20, totalTokens: 32, measurement: { input: 'provider', output: 'provider' },
    dimensions: [{ name: 'input', quantity: 12, unit: 'tokens' }, { name: 'output', quantity: 20, unit: 'tokens' }],
    currency: 'USD', amountMicrousd: amount, pricingVersion: 1,
    lineItems: [{ dimension: 'input', quantity: 12, unit_microusd: 0.4, amount_microusd: 5 }, { dimension: 'output', quantity: 20, unit_microusd: 1.6, amount_microusd: Number(amount) - 5 }],
    routing: { status_code: 200, total_duration_ms: 3, ttft_ms: null, was_streaming: false },
    providerUsage: { family: 'openai', raw_fields: { prompt_tokens: 12, completion_tokens: 20, total_tokens: 32 } },
    logId: `log_${fields.id.replace(/^req_/, '')}`, servedBy: { provider: 'openai', upstream_model: 'gpt-4.1-mini', lane: 'standard', attempts: 1 },
    errorCode: null, billingState: 'final', taskId: null, heldMicrousd: null, holdId: null, parentKeyId: null,
    ...rest,
  };
}
