import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { loadGatewayConfig } from '../../src/config/load-config';
import type { GatewayConfigInput } from '../../src/config/gateway-config-schema';
import { eventually } from '../support/eventually';
import { startTestGateway, TEST_DATABASES, type TestGateway, usageRecordOf } from '../support/test-gateway';

/** The default catalog with video polling in milliseconds. */
function config(): GatewayConfigInput {
  const base = loadGatewayConfig({}).config;
  const fast = { first_poll_after_ms: 100, interval_ms: 100, max_interval_ms: 150, timeout_ms: 5_000 };
  return { ...base, models: base.models.map((m) => (m.video ? { ...m, video: { ...m.video, polling: fast } } : m)) };
}

/**
 * What one usage record costs to keep, over the kinds of calls the gateway
 * records (chat, streamed chat, Responses, Messages, embeddings, search,
 * both stages of a decision, a video task, a refusal): the stored size of
 * each row (`pg_column_size` of the row) and of each column, measured on the
 * database itself. The public record of every call reads the same as it did
 * when it was written.
 */
describe.each(TEST_DATABASES)('the stored size of usage records (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  let openai: OpenAI;

  beforeAll(async () => {
    t = await startTestGateway({ database, config: config(), env: { GATEWAY_DECISIONS_ENABLED: 'true', GATEWAY_DECISIONS_QUESTION_GENERATION: 'true' } });
    key = await t.createKey({ name: 'sizes' });
    openai = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
  });
  afterAll(() => t?.close());

  const idOf = (headers: Headers) => headers.get('x-svc-request-id')!;

  async function post(path: string, body: unknown): Promise<{ id: string; body: any }> {
    const res = await fetch(`${t.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { id: idOf(res.headers), body: await res.json() };
  }

  /** One request id per kind of call. */
  async function callEveryKind(): Promise<string[]> {
    const ids: string[] = [];
    for (const model of ['gpt-4.1-mini', 'claude-sonnet-4-6', 'gemini-2.5-flash']) {
      ids.push(idOf((await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'Name three colours.' }] }).withResponse()).response.headers));
      const stream = await openai.chat.completions.create({ model, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Count to five.' }] }).withResponse();
      for await (const _chunk of stream.data);
      ids.push(idOf(stream.response.headers));
    }
    ids.push(idOf((await openai.responses.create({ model: 'gpt-4.1-mini', input: 'Say hello.', store: false }).withResponse()).response.headers));
    const anthropic = new Anthropic({ apiKey: key, baseURL: t.url, maxRetries: 0 });
    ids.push(idOf((await anthropic.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 256, messages: [{ role: 'user', content: 'Hello [sim replay=thinking]' }] }).withResponse()).response.headers));
    ids.push(idOf((await openai.embeddings.create({ model: 'text-embedding-3-small', input: ['one', 'two'] }).withResponse()).response.headers));
    ids.push((await post('/v1/search', { query: 'partitioned tables in PostgreSQL' })).id);
    ids.push((await post('/v1/decisions', {
      model: 'decision-gpt-4.1-mini', state: 'I was charged twice for order 1182. Give my money back!',
      questions: { is_refund: { type: 'noul', instructions: 'Does the customer ask for a refund?' } },
    })).id);
    const generated = await post('/v1/decisions', { model: 'decision-gpt-4.1-mini', state: 'Parcel 77 arrived broken.', question_generation: { enabled: true } });
    ids.push(generated.id, generated.body.question_generation.request_id);
    ids.push((await post('/v1/chat/completions', { model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] })).id);
    const video = await fetch(`${t.url}/v1/videos`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gen-imagine-video', prompt: 'A cat surfing [sim gen_ms=200]' }) });
    const videoId = ((await video.json()) as { request_id: string }).request_id;
    ids.push(idOf(video.headers));
    await eventually(async () => {
      const res = await fetch(`${t.url}/v1/videos/${videoId}`, { headers: { authorization: `Bearer ${key}` } });
      const body = (await res.json()) as { status?: string };
      return body.status ? undefined : body;
    }, 'the video to finish', 10_000, 100);
    return ids;
  }

  it('is measured row by row and column by column over every kind of call', async () => {
    const ids = await callEveryKind();
    const records = await Promise.all(ids.map((id) => usageRecordOf(t, key, id)));
    expect(records.map((r) => r.id)).toEqual(ids);
    const db = t.gateway.db;
    const { rows: [row] } = await db.query<{ n: number; avg_row: string }>('SELECT count(*)::int AS n, round(avg(pg_column_size(u.*)))::text AS avg_row FROM "usage_records" u', []);
    const { rows: columns } = await db.query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'usage_records' AND table_schema = current_schema() ORDER BY ordinal_position", [],
    );
    const sizes: Record<string, number> = {};
    for (const { column_name } of columns) {
      const { rows } = await db.query<{ avg: string }>(`SELECT coalesce(round(avg(coalesce(pg_column_size("${column_name}"), 0))), 0)::text AS avg FROM "usage_records"`, []);
      sizes[column_name] = Number(rows[0]!.avg);
    }
    // USAGE_RECORD_SIZES=1 prints the measurement (docs/deployment.md quotes it).
    if (process.env.USAGE_RECORD_SIZES) console.log(`usage records: ${row!.n}, average row ${row!.avg_row} bytes; by column ${JSON.stringify(sizes)}`);
    expect(row!.n).toBe(ids.length);
    // Measured at about 300 bytes a record (1,371 when the JSON parts were stored whole in each row).
    expect(Number(row!.avg_row)).toBeLessThan(450);
    expect(sizes.figures).toBeLessThan(160);
  });
});
