import OpenAI from 'openai';
import { ResponseSweeper } from '../../src/jobs/response-sweeper';
import { createLogger } from '../../src/observability/logger';
import { simulatorRequests, startTestGateway, TEST_DATABASES, type TestGateway, usageRecordOf } from '../support/test-gateway';

type Item = OpenAI.Responses.ResponseInputItem;

const DAY_MS = 24 * 60 * 60 * 1000;

/** An API error as the SDK raised it: status, code and param of the gateway's envelope. */
async function refusal(call: Promise<unknown>): Promise<{ status: number; code: unknown; param: unknown; message: string }> {
  const err: any = await call.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(OpenAI.APIError);
  return { status: err.status, code: err.code, param: err.param, message: err.message };
}

/**
 * The Responses lifecycle the gateway keeps itself: a native response is
 * stored unless the client says `store: false`, and its owner (only) can
 * retrieve it, list its input items, delete it, and continue it with
 * `previous_response_id`, which the upstream sees as the replayed
 * conversation. Read with the official openai SDK.
 */
describe.each(TEST_DATABASES)('stored responses (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  let client: OpenAI;
  let other: OpenAI;
  let otherKey: string;

  beforeAll(async () => {
    t = await startTestGateway({ database });
    key = await t.createKey({ name: 'responses-store' });
    client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
    otherKey = await t.createKey({ name: 'someone-else' });
    other = new OpenAI({ apiKey: otherKey, baseURL: t.baseURL, maxRetries: 0 });
  });
  afterAll(() => t?.close());

  const lastUpstream = async () => (await simulatorRequests(t)).requests.at(-1)!;
  const clearUpstream = () => fetch(`${t.simulatorUrl}/_sim/requests`, { method: 'DELETE' });
  const get = async (path: string, apiKey = key) => {
    const res = await fetch(`${t.baseURL}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
    return { status: res.status, body: (await res.json()) as any };
  };

  it('a response is kept: retrieved as answered, its input items listed with ids, then deleted', async () => {
    const input: Item[] = [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello! How can I help?' },
      { role: 'user', content: [{ type: 'input_text', text: 'Name a colour.' }] },
    ];
    const created = await client.responses.create({ model: 'gpt-4.1-mini', input, instructions: 'Be brief.' });
    expect((created as any).store).toBe(true);

    const retrieved = await client.responses.retrieve(created.id);
    expect(retrieved).toEqual(created);

    const items = await client.responses.inputItems.list(created.id);
    expect(items.data.map((item: any) => [item.type, item.role, item.content[0].type, item.content[0].text])).toEqual([
      ['message', 'user', 'input_text', 'Name a colour.'],
      ['message', 'assistant', 'output_text', 'Hello! How can I help?'],
      ['message', 'user', 'input_text', 'Hi'],
    ]);
    const ids = items.data.map((item) => item.id);
    expect(ids.every((id) => /^msg_[A-Za-z0-9_.-]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(3);
    // The same ids on every read: they are the list's cursors.
    expect((await client.responses.inputItems.list(created.id)).data.map((item) => item.id)).toEqual(ids);

    const deleted = await fetch(`${t.baseURL}/responses/${created.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ id: created.id, object: 'response', deleted: true });
    expect(await refusal(client.responses.retrieve(created.id))).toMatchObject({ status: 404, code: 'response_not_found', param: 'response_id' });
    expect(await refusal(client.responses.delete(created.id))).toMatchObject({ status: 404, code: 'response_not_found' });
    expect(await refusal(client.responses.inputItems.list(created.id))).toMatchObject({ status: 404, code: 'response_not_found' });
  });

  it('a streamed response is kept as its final event had it', async () => {
    const stream = client.responses.stream({ model: 'gpt-4.1-mini', input: 'Tell me a story.' });
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) if (event.type === 'response.completed') completed = event.response;
    const final = await stream.finalResponse();
    expect((final as any).store).toBe(true);
    const retrieved = await client.responses.retrieve(final.id);
    const { output_text: _text, ...asAnswered } = retrieved;
    expect(asAnswered).toEqual(JSON.parse(JSON.stringify(completed)));
    expect(retrieved.output_text).toBe(final.output_text);
    const items = await client.responses.inputItems.list(final.id);
    expect(items.data).toEqual([expect.objectContaining({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Tell me a story.' }] })]);
  });

  it('input items page by after and before, in either order; the SDK pages through them all', async () => {
    const input: Item[] = ['one', 'two', 'three', 'four', 'five'].map((text) => ({ role: 'user', content: text }));
    const { id } = await client.responses.create({ model: 'gpt-4.1-mini', input, store: true });
    const texts = (data: any[]) => data.map((item) => item.content[0].text);

    const all: string[] = [];
    for await (const item of client.responses.inputItems.list(id, { limit: 2, order: 'asc' })) all.push((item as any).content[0].text);
    expect(all).toEqual(['one', 'two', 'three', 'four', 'five']);

    const first = await get(`/responses/${id}/input_items?limit=2`);
    expect(texts(first.body.data)).toEqual(['five', 'four']);
    expect(first.body).toMatchObject({ object: 'list', has_more: true, first_id: first.body.data[0].id, last_id: first.body.data[1].id });
    const next = await get(`/responses/${id}/input_items?limit=2&after=${first.body.last_id}`);
    expect(texts(next.body.data)).toEqual(['three', 'two']);
    const last = await get(`/responses/${id}/input_items?limit=2&after=${next.body.last_id}`);
    expect(texts(last.body.data)).toEqual(['one']);
    expect(last.body.has_more).toBe(false);
    const back = await get(`/responses/${id}/input_items?limit=2&before=${last.body.first_id}`);
    expect(texts(back.body.data)).toEqual(['three', 'two']);
    expect(back.body.has_more).toBe(true);
  });

  it("another key finds nothing: 404 on every route, and the owner's response stays", async () => {
    const { id } = await client.responses.create({ model: 'gpt-4.1-mini', input: 'Mine.' });
    expect(await refusal(other.responses.retrieve(id))).toMatchObject({ status: 404, code: 'response_not_found' });
    expect(await refusal(other.responses.inputItems.list(id))).toMatchObject({ status: 404, code: 'response_not_found' });
    expect(await refusal(other.responses.delete(id))).toMatchObject({ status: 404, code: 'response_not_found' });
    expect((await client.responses.retrieve(id)).id).toBe(id);
    const { status, body } = await get(`/responses/${id}`, await t.createKey({ name: 'third' }));
    expect(status).toBe(404);
    expect(body.error).toMatchObject({ code: 'response_not_found', type: 'not_found_error', message: `Response with id '${id}' not found.` });
  });

  it('store: false keeps nothing; neither does a bridged response', async () => {
    const unstored = await client.responses.create({ model: 'gpt-4.1-mini', input: 'Forget this.', store: false });
    expect((unstored as any).store).toBe(false);
    expect(await refusal(client.responses.retrieve(unstored.id))).toMatchObject({ status: 404, code: 'response_not_found' });
    const bridged = await client.responses.create({ model: 'claude-sonnet-4-5', input: 'Hi', max_output_tokens: 300 });
    expect(await refusal(client.responses.retrieve(bridged.id))).toMatchObject({ status: 404, code: 'response_not_found' });
  });

  it('previous_response_id replays the conversation to the upstream, three turns deep, instructions not carried over', async () => {
    const first = await client.responses.create({ model: 'gpt-4.1-mini', input: 'My name is Ada.', instructions: 'Be brief.' });
    const second = await client.responses.create({ model: 'gpt-4.1-mini', input: [{ role: 'user', content: 'What is my name?' }], previous_response_id: first.id });
    expect(second.previous_response_id).toBe(first.id);
    const sentSecond = (await lastUpstream()).body;
    expect(sentSecond).not.toHaveProperty('previous_response_id');
    expect(sentSecond).not.toHaveProperty('instructions');
    expect(sentSecond.input).toEqual([{ role: 'user', content: 'My name is Ada.' }, ...JSON.parse(JSON.stringify(first.output)), { role: 'user', content: 'What is my name?' }]);

    const { data: events, response } = await client.responses
      .create({ model: 'gpt-4.1-mini', input: 'Say it again.', instructions: 'Answer in French.', previous_response_id: second.id, stream: true })
      .withResponse();
    let third: OpenAI.Responses.Response | undefined;
    for await (const event of events) if (event.type === 'response.completed') third = event.response;
    if (!third) throw new Error('the stream ended without response.completed');
    expect(third.previous_response_id).toBe(second.id);
    const sentThird = (await lastUpstream()).body;
    expect(sentThird.instructions).toBe('Answer in French.');
    expect(sentThird).not.toHaveProperty('previous_response_id');
    expect(sentThird.input).toEqual([
      { role: 'user', content: 'My name is Ada.' }, ...JSON.parse(JSON.stringify(first.output)),
      { role: 'user', content: 'What is my name?' }, ...JSON.parse(JSON.stringify(second.output)),
      { role: 'user', content: 'Say it again.' },
    ]);
    // The continuation is kept like any response; its input items are its own, not the replayed ones.
    expect((await client.responses.retrieve(third.id)).previous_response_id).toBe(second.id);
    expect((await client.responses.inputItems.list(third.id)).data).toHaveLength(1);
    // One usage record, billed as the upstream reported the replayed input.
    const requestId = response.headers.get('x-svc-request-id')!;
    const usage = await usageRecordOf(t, key, requestId);
    expect(usage.usage.prompt_tokens).toBe(third.usage!.input_tokens);
    expect(third.usage!.input_tokens).toBeGreaterThan(second.usage!.input_tokens);
  });

  it("previous_response_id of another key, or unknown, is 400 previous_response_not_found before any upstream call", async () => {
    const { id } = await client.responses.create({ model: 'gpt-4.1-mini', input: 'Secret.' });
    await clearUpstream();
    for (const [caller, previous] of [[other, id], [client, 'resp_doesnotexist']] as const) {
      expect(await refusal(caller.responses.create({ model: 'gpt-4.1-mini', input: 'Go on.', previous_response_id: previous }))).toEqual({
        status: 400, code: 'previous_response_not_found', param: 'previous_response_id', message: `400 Previous response with id '${previous}' not found.`,
      });
    }
    expect((await simulatorRequests(t)).requests).toHaveLength(0);
    // Refused before any upstream call: its usage record says so, uncharged.
    const err: any = await other.responses.create({ model: 'gpt-4.1-mini', input: 'Go on.', previous_response_id: id }).catch((e: unknown) => e);
    const requestId = err.headers.get('x-svc-request-id');
    const record = await usageRecordOf(t, otherKey, requestId);
    expect({ status: record.routing.status_code, amount: record.billing.amount_microusd }).toEqual({ status: 400, amount: 0 });
  });

  it('previous_response_id on a stateless-bridge model stays 400 protocol_bridge_unsupported', async () => {
    const { id } = await client.responses.create({ model: 'gpt-4.1-mini', input: 'Hi' });
    expect(await refusal(client.responses.create({ model: 'claude-sonnet-4-5', input: 'Go on.', previous_response_id: id }))).toMatchObject({
      status: 400, code: 'protocol_bridge_unsupported', param: 'previous_response_id',
    });
  });

  it.each([
    ['a malformed id', '/responses/not-a-response', 'response_id'],
    ['an id with a control character', '/responses/resp_%00x', 'response_id'],
    ['limit 0', '/responses/resp_x/input_items?limit=0', 'limit'],
    ['limit 101', '/responses/resp_x/input_items?limit=101', 'limit'],
    ['a limit that is no number', '/responses/resp_x/input_items?limit=ten', 'limit'],
    ['limit twice', '/responses/resp_x/input_items?limit=1&limit=2', 'limit'],
    ['an unknown order', '/responses/resp_x/input_items?order=sideways', 'order'],
    ['an unknown include', '/responses/resp_x/input_items?include[]=everything', 'include'],
    ['a streamed retrieve', '/responses/resp_x?stream=true', 'stream'],
  ])('%s is a 400 invalid_parameter in the envelope', async (_name, path, param) => {
    const { status, body } = await get(path);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'invalid_parameter', type: 'invalid_request_error', param });
  });

  it('a cursor that names no item of the response is a 400, and a malformed previous_response_id too', async () => {
    const { id } = await client.responses.create({ model: 'gpt-4.1-mini', input: 'Hi' });
    for (const cursor of ['after', 'before']) {
      const { status, body } = await get(`/responses/${id}/input_items?${cursor}=msg_unknown`);
      expect({ status, code: body.error.code, param: body.error.param }).toEqual({ status: 400, code: 'invalid_parameter', param: cursor });
    }
    expect(await refusal(client.responses.create({ model: 'gpt-4.1-mini', input: 'Hi', previous_response_id: 'chatcmpl-1' }))).toMatchObject({
      status: 400, code: 'invalid_parameter', param: 'previous_response_id',
    });
  });
});

/**
 * With the operator letting upstreams store responses, a continuation on
 * the channel that served the previous response names the upstream's own
 * id instead of replaying; and the sweep removes what outlived a short
 * retention.
 */
describe.each(TEST_DATABASES)('stored responses with upstream store and a one-day retention (%s)', (database) => {
  let t: TestGateway;
  let client: OpenAI;

  beforeAll(async () => {
    t = await startTestGateway({ database, env: { GATEWAY_RESPONSES_UPSTREAM_STORE: 'true', GATEWAY_RESPONSES_RETENTION_DAYS: '1' } });
    client = new OpenAI({ apiKey: await t.createKey({ name: 'upstream-store' }), baseURL: t.baseURL, maxRetries: 0 });
  });
  afterAll(() => t?.close());

  it("a continuation sends the upstream its own id and only the new input (the simulator keeps nothing, so it answers that it has none)", async () => {
    const first = await client.responses.create({ model: 'gpt-4.1-mini', input: 'My name is Ada.' });
    const err = await refusal(client.responses.create({ model: 'gpt-4.1-mini', input: 'What is my name?', previous_response_id: first.id }));
    expect(err).toMatchObject({ status: 400, code: 'previous_response_not_found' });
    const sent = (await simulatorRequests(t)).requests.at(-1)!.body;
    expect(sent.previous_response_id).toEqual(expect.stringMatching(/^resp_/));
    expect(sent.previous_response_id).not.toBe(first.id);
    expect(sent.input).toEqual([{ role: 'user', content: 'What is my name?' }]);
  });

  it('the sweep removes responses past their retention, in bounded batches, and keeps the others', async () => {
    const store = t.gateway.services.storedResponses.store;
    const a = await client.responses.create({ model: 'gpt-4.1-mini', input: 'one' });
    const b = await client.responses.create({ model: 'gpt-4.1-mini', input: 'two' });
    await client.responses.retrieve(b.id);
    const logger = createLogger('silent');
    expect(await new ResponseSweeper(store, logger, 60_000, () => new Date()).sweep()).toBe(0);
    expect((await client.responses.retrieve(a.id)).id).toBe(a.id);

    const later = new Date(Date.now() + 2 * DAY_MS);
    expect(await store.deleteExpired(1, later)).toBe(1);
    expect(await new ResponseSweeper(store, logger, 60_000, () => later).sweep()).toBeGreaterThanOrEqual(1);
    expect(await store.deleteExpired(1000, later)).toBe(0);
    for (const id of [a.id, b.id]) expect(await refusal(client.responses.retrieve(id))).toMatchObject({ status: 404, code: 'response_not_found' });
  });
});
