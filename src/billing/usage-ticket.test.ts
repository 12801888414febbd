import { rmSync } from 'node:fs';
import path from 'node:path';
import { freshPgliteDataDir } from '../../test/support/pglite-template';
import { loadGatewayConfig } from '../config/load-config';
import { openDatabase, type Database } from '../db/database';
import { silentLogger } from '../observability/logger';
import { GatewayMetrics } from '../observability/metrics';
import { Tracing } from '../observability/tracing';
import { PriceTable } from './price-table';
import { UsageRecorder } from './usage-recorder';
import { UsageSpool } from './usage-spool';
import { UsageTicket, type Settlement } from './usage-ticket';
import { UsageWriter } from './usage-writer';

const principal = { keyId: 'key_1', accountId: 'acct_default', projectId: null, memberId: null, keyName: 'k', allowedModels: null, expiresAt: null, parentKeyId: null, allowedDomains: null, mcpTools: [], spendControlled: false };
const answered: Settlement = {
  statusCode: 200, charge: true, ttftMs: null, wasStreaming: false, errorCode: null, pricedAs: { modelId: 'gpt-4.1-mini', lane: 'standard' }, servedBy: null,
  usage: { promptTokens: 10, completionTokens: 20, dimensions: [{ name: 'input', quantity: 10, unit: 'tokens' }, { name: 'output', quantity: 20, unit: 'tokens' }], measurement: { input: 'provider', output: 'provider' }, providerUsage: { family: 'openai', raw_fields: {} } },
};

describe('a usage ticket whose client left after the record was committed', () => {
  let dir: string;
  let db: Database;
  let recorder: UsageRecorder;
  let writer: UsageWriter;
  beforeEach(async () => {
    dir = await freshPgliteDataDir();
    db = await openDatabase({ dataDir: path.join(dir, 'pglite') });
    writer = new UsageWriter(db, new UsageSpool(path.join(dir, 'spool.jsonl')), silentLogger, new GatewayMetrics());
    recorder = new UsageRecorder({ currentPricing: () => ({ prices: new PriceTable(loadGatewayConfig({}).config.models), version: 1 }) }, writer, new GatewayMetrics(), Tracing.off);
  });
  afterEach(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ticket = (id: string) => new UsageTicket(recorder, id, principal, '/v1/chat/completions', new Date(), performance.now());
  const delivery = async (id: string) => (await db.prisma.usageRecord.findUnique({ where: { id } }))?.delivery;

  it('marks the record client_gone when the client leaves after the settlement', async () => {
    const t = ticket('req_after');
    await t.settle(answered);
    expect(await delivery('req_after')).toBeNull();
    t.noteClientGone();
    await writer.flush();
    expect(await delivery('req_after')).toBe('client_gone');
  });

  it('marks it once committed when the client left while it was being settled', async () => {
    const t = ticket('req_during');
    const settling = t.settle(answered);
    t.noteClientGone();
    await settling;
    await writer.flush();
    expect(await delivery('req_during')).toBe('client_gone');
  });

  it('leaves refusals and delivered answers alone', async () => {
    const refused = ticket('req_refused');
    await refused.fail(400, 'invalid_parameter');
    refused.noteClientGone();
    const delivered = ticket('req_delivered');
    await delivered.settle(answered);
    await writer.flush();
    expect(await delivery('req_refused')).toBeNull();
    expect(await delivery('req_delivered')).toBeNull();
  });
});
