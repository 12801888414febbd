import { rmSync } from 'node:fs';
import path from 'node:path';
import { freshPgliteDataDir } from '../../test/support/pglite-template';
import { PriceTable } from '../billing/price-table';
import { UsageRecorder } from '../billing/usage-recorder';
import { UsageSpool } from '../billing/usage-spool';
import { UsageWriter } from '../billing/usage-writer';
import { loadGatewayConfig } from '../config/load-config';
import { openDatabase, type Database } from '../db/database';
import { GatewayError } from '../errors/gateway-error';
import type { Principal } from '../keys/principal';
import { RateLimits } from '../limits/rate-limits';
import type { RateLimitDefaults } from '../limits/rate-limit-rules';
import { silentLogger } from '../observability/logger';
import { GatewayMetrics } from '../observability/metrics';
import { ModelCallGate } from './model-call-gate';
import { Tracing } from '../observability/tracing';

const principal: Principal = { keyId: 'key_gate', accountId: 'acct_default', projectId: null, memberId: null, keyName: 'k', allowedModels: null, expiresAt: null, parentKeyId: null, allowedDomains: null, mcpTools: [], spendControlled: false };
const NO_LIMITS: RateLimitDefaults = { keyRpm: 0, keyTpm: 0, accountRpm: 0, accountTpm: 0 };

describe('the model call gate', () => {
  let dir: string;
  let db: Database;
  let writer: UsageWriter;
  let recorder: UsageRecorder;
  let counter = 0;
  beforeAll(async () => {
    dir = await freshPgliteDataDir();
    db = await openDatabase({ dataDir: path.join(dir, 'pglite') });
    writer = new UsageWriter(db, new UsageSpool(path.join(dir, 'spool.jsonl')), silentLogger, new GatewayMetrics());
    recorder = new UsageRecorder({ currentPricing: () => ({ prices: new PriceTable(loadGatewayConfig({}).config.models), version: 1 }) }, writer, new GatewayMetrics(), Tracing.off);
  });
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Real limits, counted in this process; every test its own key, so counters never meet. */
  const limits = (defaults: Partial<RateLimitDefaults>, modelLimits: Record<string, { rpm?: number; tpm?: number }> = {}) =>
    new RateLimits({
      defaults: { ...NO_LIMITS, ...defaults },
      modelLimits: (name) => (modelLimits[name] ? { id: name, ...modelLimits[name] } : undefined),
      redisPrefix: 'gate-test',
      whenRedisDown: 'open',
      logger: silentLogger,
      metrics: new GatewayMetrics(),
    });
  const open = (gate: ModelCallGate, who: Principal) =>
    gate.open({ requestId: `req_gate_${++counter}`, principal: who, endpoint: '/v1/chat/completions', createdAt: new Date(), startedAt: performance.now() }).context;
  const chat = (model: string, maxTokens?: number) => ({ model, messages: [{ role: 'user', content: 'hello there' }], ...(maxTokens ? { max_tokens: maxTokens } : {}) });
  const record = async (id: string) => {
    await writer.flush();
    return db.prisma.usageRecord.findUnique({ where: { id } });
  };

  it('admits every call when no limits are configured, with no headers to send', async () => {
    const gate = new ModelCallGate({ recorder, logger: silentLogger });
    const call = open(gate, principal);
    expect(await gate.admit(call, { endpoint: 'chat', model: 'gpt-4.1-mini', body: chat('gpt-4.1-mini') })).toEqual({ headers: {} });
    await call.ticket.fail(400, 'invalid_parameter');
  });

  it('refuses past the key\'s requests per minute with 429, Retry-After, and an uncharged record written once', async () => {
    const who = { ...principal, keyId: 'key_gate_rpm' };
    const gate = new ModelCallGate({ recorder, logger: silentLogger, rateLimits: limits({ keyRpm: 2 }) });
    for (const remaining of ['1', '0']) {
      const call = open(gate, who);
      const admission = await gate.admit(call, { endpoint: 'chat', model: 'gpt-4.1-mini', body: chat('gpt-4.1-mini') });
      expect(admission.refusal).toBeUndefined();
      expect(admission.headers).toMatchObject({ 'x-ratelimit-limit-requests': '2', 'x-ratelimit-remaining-requests': remaining });
      await call.ticket.fail(400, 'invalid_parameter');
    }

    const refused = open(gate, who);
    const admission = await gate.admit(refused, { endpoint: 'chat', model: 'gpt-4.1-mini', body: chat('gpt-4.1-mini') });
    expect(admission.refusal).toBeInstanceOf(GatewayError);
    expect(admission.refusal).toMatchObject({ code: 'rate_limit_exceeded', status: 429, options: { details: { scope: 'key', unit: 'requests', limit: 2 } } });
    expect(Number(admission.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(admission.headers['retry-after-ms'])).toBeGreaterThanOrEqual(1);
    expect(admission.headers['x-ratelimit-remaining-requests']).toBe('0');

    expect(await gate.refuse(refused, admission.refusal)).toBe(admission.refusal);
    // A second refusal of the same call (a door's error path after its own) writes nothing more.
    await gate.refuse(refused, new Error('later'));
    const row = await record(refused.requestId);
    expect(row).toMatchObject({ statusCode: 429, errorCode: 'rate_limit_exceeded', amountMicrousd: 0n, endpoint: '/v1/chat/completions' });
  });

  it('holds a call to its model\'s own limit, apart from other models', async () => {
    const who = { ...principal, keyId: 'key_gate_model' };
    const gate = new ModelCallGate({ recorder, logger: silentLogger, rateLimits: limits({}, { 'gate-limited': { rpm: 1 } }) });
    const first = open(gate, who);
    expect((await gate.admit(first, { endpoint: 'chat', model: 'gate-limited', body: chat('gate-limited') })).refusal).toBeUndefined();
    const second = open(gate, who);
    expect((await gate.admit(second, { endpoint: 'chat', model: 'gate-limited', body: chat('gate-limited') })).refusal).toMatchObject({ code: 'rate_limit_exceeded', options: { details: { scope: 'model' } } });
    const other = open(gate, who);
    expect(await gate.admit(other, { endpoint: 'chat', model: 'gpt-4.1-mini', body: chat('gpt-4.1-mini') })).toEqual({ headers: {} });
    for (const call of [first, second, other]) await gate.refuse(call, new GatewayError('invalid_parameter', 'x'));
  });

  it('corrects the token estimate to the settled usage, so the next call sees the tokens really used', async () => {
    const who = { ...principal, keyId: 'key_gate_tpm' };
    const gate = new ModelCallGate({ recorder, logger: silentLogger, rateLimits: limits({ keyTpm: 10_000 }) });
    const call = open(gate, who);
    const first = await gate.admit(call, { endpoint: 'chat', model: 'gpt-4.1-mini', body: chat('gpt-4.1-mini', 4_000) });
    const estimate = 10_000 - Number(first.headers['x-ratelimit-remaining-tokens']);
    expect(estimate).toBeGreaterThan(4_000);

    await call.ticket.settle({
      statusCode: 200, charge: true, ttftMs: null, wasStreaming: false, errorCode: null, pricedAs: { modelId: 'gpt-4.1-mini', lane: 'standard' }, servedBy: null,
      usage: { promptTokens: 10, completionTokens: 20, dimensions: [{ name: 'input', quantity: 10, unit: 'tokens' }, { name: 'output', quantity: 20, unit: 'tokens' }], measurement: { input: 'provider', output: 'provider' }, providerUsage: { family: 'openai', raw_fields: {} } },
    });
    // The give-back is not awaited by the settlement: let it land.
    await new Promise((r) => setTimeout(r, 20));
    const next = open(gate, who);
    const second = await gate.admit(next, { endpoint: 'chat', model: 'gpt-4.1-mini', body: chat('gpt-4.1-mini', 4_000) });
    expect(Number(second.headers['x-ratelimit-remaining-tokens'])).toBe(10_000 - 30 - estimate);
    await gate.refuse(next, new GatewayError('invalid_parameter', 'x'));
  });

  it('gives back what a refused call counted, so the next call is held only to its own', async () => {
    const who = { ...principal, keyId: 'key_gate_giveback' };
    const gate = new ModelCallGate({ recorder, logger: silentLogger, rateLimits: limits({ keyTpm: 5_000 }) });
    const tooBig = open(gate, who);
    const refused = await gate.admit(tooBig, { endpoint: 'chat', model: 'gpt-4.1-mini', body: chat('gpt-4.1-mini', 6_000) });
    expect(refused.refusal).toMatchObject({ code: 'rate_limit_exceeded', options: { details: { unit: 'tokens' } } });
    await gate.refuse(tooBig, refused.refusal);
    await new Promise((r) => setTimeout(r, 20));
    const small = open(gate, who);
    const admitted = await gate.admit(small, { endpoint: 'chat', model: 'gpt-4.1-mini', body: chat('gpt-4.1-mini', 100) });
    expect(admitted.refusal).toBeUndefined();
    const smallEstimate = 5_000 - Number(admitted.headers['x-ratelimit-remaining-tokens']);
    expect(smallEstimate).toBeGreaterThan(100);
    expect(smallEstimate).toBeLessThan(200);
    await gate.refuse(small, new GatewayError('invalid_parameter', 'x'));
  });

  it('records an unknown error as an uncharged internal error', async () => {
    const gate = new ModelCallGate({ recorder, logger: silentLogger });
    const call = open(gate, principal);
    const told = await gate.refuse(call, new TypeError('a bug'));
    expect(told).toMatchObject({ code: 'internal_error', status: 500 });
    expect(await record(call.requestId)).toMatchObject({ statusCode: 500, errorCode: 'internal_error', amountMicrousd: 0n });
  });
});
