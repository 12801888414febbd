import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import OpenAI from 'openai';
import { graphqlHttp } from '../graphql/graphql-test-client';
import { eventually } from '../support/eventually';
import { ADMIN_TOKEN, fetchUsageRecord, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

/** What the totals must add up to: each record as GET /api/usage/requests/{id} shows it. */
interface SeenRecord {
  keyId: string;
  model: string;
  day: string;
  status: number;
  prompt: number;
  completion: number;
  amount: number;
}

interface Figures {
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  amount_microusd: number;
}

function sumOf(records: SeenRecord[]): Figures {
  return {
    requests: records.length,
    prompt_tokens: records.reduce((a, r) => a + r.prompt, 0),
    completion_tokens: records.reduce((a, r) => a + r.completion, 0),
    amount_microusd: records.reduce((a, r) => a + r.amount, 0),
  };
}

/** The expected rows for one grouping, keyed by its value. */
function expectedBy(records: SeenRecord[], group: (r: SeenRecord) => string | number): Map<string | number, Figures> {
  const byValue = new Map<string | number, SeenRecord[]>();
  for (const r of records) byValue.set(group(r), [...(byValue.get(group(r)) ?? []), r]);
  return new Map([...byValue].map(([value, rs]) => [value, sumOf(rs)]));
}

function figuresOf(row: Figures): Figures {
  return { requests: row.requests, prompt_tokens: row.prompt_tokens, completion_tokens: row.completion_tokens, amount_microusd: row.amount_microusd };
}

const SPEND_TOTALS: TypedDocumentNode<any, { groupBy: string[]; from?: string; to?: string }> = parse(`
  query SpendTotals($groupBy: [SpendGroup!]!, $from: DateTimeISO, $to: DateTimeISO) {
    spendTotals(groupBy: $groupBy, from: $from, to: $to) {
      groupBy from to
      data { model day endpoint status requests promptTokens completionTokens amountMicrousd }
      total { requests promptTokens completionTokens amountMicrousd }
    }
  }`);

describe.each(TEST_DATABASES)('spend totals (%s)', (database) => {
  let t: TestGateway;
  let keyA: { key: string; id: string; account_id: string; project_id: string | null; member_id: string | null };
  let keyB: typeof keyA;
  const records: SeenRecord[] = [];
  const today = new Date().toISOString().slice(0, 10);
  const dayAfterTomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);

  const get = async (path: string, key: string | undefined) => {
    const res = await fetch(`${t.url}${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
    return { status: res.status, body: (await res.json()) as any };
  };

  async function createKey(body: Record<string, string>) {
    const res = await fetch(`${t.url}/api/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(201);
    return (await res.json()) as typeof keyA;
  }

  /** Waits for the request's usage record and keeps what it says. */
  async function remember(key: typeof keyA, requestId: string): Promise<void> {
    const { body } = await eventually(async () => {
      const found = await fetchUsageRecord(t, key.key, requestId);
      return found.status === 200 ? found : undefined;
    }, `the usage record of ${requestId}`);
    records.push({
      keyId: key.id,
      model: body.model,
      day: new Date(body.created_at * 1000).toISOString().slice(0, 10),
      status: body.routing.status_code,
      prompt: body.usage.prompt_tokens,
      completion: body.usage.completion_tokens,
      amount: body.billing.amount_microusd,
    });
  }

  async function chat(key: typeof keyA, model: string): Promise<void> {
    const client = new OpenAI({ apiKey: key.key, baseURL: t.baseURL, maxRetries: 0 });
    const { response } = await client.chat.completions.create({ model, messages: [{ role: 'user', content: `Say something about ${model}.` }] }).withResponse();
    await remember(key, response.headers.get('x-svc-request-id')!);
  }

  beforeAll(async () => {
    t = await startTestGateway({ database });
    keyA = await createKey({ name: 'spend-a', project: 'alpha', member: 'ann' });
    keyB = await createKey({ name: 'spend-b', project: 'beta' });
    await chat(keyA, 'gpt-4.1-mini');
    await chat(keyA, 'gpt-4.1-mini');
    await chat(keyA, 'gpt-4.1');
    await chat(keyB, 'gpt-4.1-mini');
    await chat(keyB, 'gpt-4.1');
    // A refused request leaves an uncharged record, which still counts as a request.
    const refused = await fetch(`${t.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keyA.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'no-such-model', messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(refused.status).toBe(404);
    await remember(keyA, refused.headers.get('x-svc-request-id')!);
  });
  afterAll(() => t?.close());

  const recordsOf = (key: typeof keyA) => records.filter((r) => r.keyId === key.id);

  it('totals a key by model and day as the sums of its own records, sorted by day then model', async () => {
    const mine = recordsOf(keyA);
    expect(mine.some((r) => r.amount > 0)).toBe(true);
    expect(mine.find((r) => r.model === 'no-such-model')).toMatchObject({ status: 404, amount: 0 });

    const { status, body } = await get(`/api/usage/totals?group_by=model,day&from=${today}&to=${dayAfterTomorrow}`, keyA.key);
    expect(status).toBe(200);
    expect(body).toMatchObject({ object: 'list', group_by: ['model', 'day'], from: `${today}T00:00:00.000Z`, to: `${dayAfterTomorrow}T00:00:00.000Z` });
    const expected = expectedBy(mine, (r) => `${r.day} ${r.model}`);
    expect(body.data).toHaveLength(expected.size);
    for (const row of body.data) expect(figuresOf(row)).toEqual(expected.get(`${row.day} ${row.model}`));
    const order = body.data.map((row: any) => `${row.day} ${row.model}`);
    expect(order).toEqual([...order].sort());
    expect(body.total).toEqual(sumOf(mine));
    expect(Number.isInteger(body.total.amount_microusd)).toBe(true);
  });

  it("never counts another key's records", async () => {
    const { status, body } = await get('/api/usage/totals?group_by=model', keyB.key);
    expect(status).toBe(200);
    expect(body.total).toEqual(sumOf(recordsOf(keyB)));
    expect(body.data.map((row: any) => row.model)).not.toContain('no-such-model');
    const expected = expectedBy(recordsOf(keyB), (r) => r.model);
    for (const row of body.data) expect(figuresOf(row)).toEqual(expected.get(row.model));
  });

  it('groups by status and endpoint', async () => {
    const { body } = await get('/api/usage/totals?group_by=status,endpoint', keyA.key);
    const expected = expectedBy(recordsOf(keyA), (r) => r.status);
    expect(body.data).toHaveLength(expected.size);
    for (const row of body.data) {
      expect(row.endpoint).toBe('/v1/chat/completions');
      expect(figuresOf(row)).toEqual(expected.get(row.status));
    }
  });

  it("gives the operator every key's totals, by key, project and member", async () => {
    const { status, body } = await get(`/api/admin/usage/totals?account_id=${keyA.account_id}&group_by=key,project,member`, ADMIN_TOKEN);
    expect(status).toBe(200);
    const rowOf = (id: string) => body.data.find((row: any) => row.key === id);
    expect(rowOf(keyA.id)).toEqual({ key: keyA.id, project: keyA.project_id, member: keyA.member_id, ...sumOf(recordsOf(keyA)) });
    expect(rowOf(keyB.id)).toEqual({ key: keyB.id, project: keyB.project_id, member: null, ...sumOf(recordsOf(keyB)) });
    expect(keyA.project_id).not.toBeNull();
    expect(body.total).toEqual(sumOf(records));

    const all = await get('/api/admin/usage/totals?group_by=account,model', ADMIN_TOKEN);
    expect(all.status).toBe(200);
    expect(all.body.total).toEqual(sumOf(records));
    expect(new Set(all.body.data.map((row: any) => row.account))).toEqual(new Set([keyA.account_id]));

    expect((await get('/api/admin/usage/totals?group_by=key', keyA.key)).status).toBe(401);
    expect((await get(`/api/admin/usage/totals?account_id=${keyA.account_id}&group_by=account`, ADMIN_TOKEN)).body.error.param).toBe('group_by');
  });

  it.each([
    ['group_by=model,colour', 'group_by', 'colour'],
    ['group_by=key', 'group_by', 'key'],
    ['group_by=model,day,status,endpoint', 'group_by', 'at most 3'],
    ['', 'group_by', 'required'],
    ['group_by=model&from=yesterday', 'from', 'yesterday'],
    ['group_by=model&to=2026-13-45', 'to', '2026-13-45'],
    ['group_by=model&from=2025-01-01&to=2026-11-25', 'to', '366 days'],
    ['group_by=model&from=2026-11-25&to=2026-11-01', 'to', 'after'],
  ])('answers 400 naming the parameter for ?%s', async (query, param, mentions) => {
    const { status, body } = await get(`/api/usage/totals?${query}`, keyA.key);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'invalid_parameter', param });
    expect(body.error.message).toContain(mentions);
  });

  it('answers 401 without a key', async () => {
    const { status, body } = await get('/api/usage/totals?group_by=model', undefined);
    expect(status).toBe(401);
    expect(body.error.code).toBe('missing_api_key');
  });

  it('gives the same numbers over GraphQL', async () => {
    const from = `${today}T00:00:00.000Z`;
    const to = `${dayAfterTomorrow}T00:00:00.000Z`;
    const rest = (await get(`/api/usage/totals?group_by=model,day&from=${from}&to=${to}`, keyA.key)).body;
    const result = await graphqlHttp(t, keyA.key, SPEND_TOTALS, { groupBy: ['MODEL', 'DAY'], from, to });
    expect(result.errors).toBeUndefined();
    const totals = result.data.spendTotals;
    expect(totals).toMatchObject({ groupBy: ['MODEL', 'DAY'], from, to });
    expect(totals.data).toEqual(
      rest.data.map((row: any) => ({
        model: row.model, day: row.day, endpoint: null, status: null,
        requests: row.requests, promptTokens: row.prompt_tokens, completionTokens: row.completion_tokens, amountMicrousd: row.amount_microusd,
      })),
    );
    expect(totals.total).toEqual({ requests: rest.total.requests, promptTokens: rest.total.prompt_tokens, completionTokens: rest.total.completion_tokens, amountMicrousd: rest.total.amount_microusd });
    expect(totals.total.amountMicrousd).toBe(sumOf(recordsOf(keyA)).amount_microusd);

    const tooLong = await graphqlHttp(t, keyA.key, SPEND_TOTALS, { groupBy: ['MODEL'], from: '2025-01-01T00:00:00Z', to });
    expect(tooLong.errors?.[0].extensions).toMatchObject({ code: 'invalid_parameter', param: 'to' });
  });
});
