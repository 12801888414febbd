import { print } from 'graphql';
import type { Client } from 'graphql-ws';
import { simulatorRequests, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';
import {
  ChatCompletionDocument,
  UsageRecordDocument,
  UsageRecordsDocument,
  type ChatCompletionInput,
  type ChatCompletionSubscription,
} from './generated/graphql';
import { graphqlHttp, runOverWs, wsClient } from './graphql-test-client';
import { eventually } from '../support/eventually';

type ChatEvent = ChatCompletionSubscription['chatCompletion'];

const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

function ask(content: string, extra: Partial<ChatCompletionInput> = {}): { input: ChatCompletionInput } {
  return { input: { model: 'gpt-4.1-mini', messages: [{ role: 'user', content }], ...extra } };
}

describe.each(TEST_DATABASES)('GraphQL chatCompletion subscription (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  let client: Client;

  /** Resolves once the simulator has received the chat request whose prompt contains `text`. */
  const upstreamReceived = (text: string) =>
    eventually(async () => ((await simulatorRequests(t)).requests.some((r) => JSON.stringify(r.body).includes(text)) ? true : undefined), `the upstream call "${text}"`);

  const usageRecord = async (id: string, as = key) => (await graphqlHttp(t, as, UsageRecordDocument, { id })).data!.usageRecord;

  /** Subscribes, lets `eventsBefore` events arrive, then ends the subscription with `leave`. */
  function leaveMidStream(subscriber: Client, leave: (unsubscribe: () => void) => void, eventsBefore = 3): Promise<ChatEvent[]> {
    return new Promise((resolve, reject) => {
      const events: ChatEvent[] = [];
      const unsubscribe = subscriber.subscribe<ChatCompletionSubscription>(
        { query: print(ChatCompletionDocument), variables: ask('Tell me a long story [sim pace=50 words=400]') },
        {
          next: (result) => {
            if (result.errors) return reject(new Error(JSON.stringify(result.errors)));
            events.push(result.data!.chatCompletion);
            if (events.length === eventsBefore) {
              leave(unsubscribe);
              resolve(events);
            }
          },
          error: (err) => (events.length >= eventsBefore ? undefined : reject(err)),
          complete: () => (events.length >= eventsBefore ? undefined : reject(new Error(`completed after ${events.length} events`))),
        },
      );
    });
  }
  beforeAll(async () => {
    t = await startTestGateway({ database });
    key = await t.createKey({ name: 'streamer' });
    client = wsClient(t, { authorization: `Bearer ${key}` });
  });

  afterAll(async () => {
    await client?.dispose();
    await t?.close();
  });

  it('carries reasoning deltas before the answer, for a model that reasons', async () => {
    const { results, failure } = await runOverWs(
      client,
      ChatCompletionDocument,
      ask('What is 925 divided by 5?', { model: 'claude-sonnet-4-5', maxTokens: 4096, reasoning: { effort: 'medium' } }),
    );
    expect(failure).toBeUndefined();
    const events = results.map((r) => r.data!.chatCompletion);
    const firstContent = events.findIndex((e) => e.contentDelta);
    const lastReasoning = events.map((e) => Boolean(e.reasoningDelta)).lastIndexOf(true);
    expect(lastReasoning).toBeGreaterThanOrEqual(0);
    expect(firstContent).toBeGreaterThan(lastReasoning);
    expect(events[events.length - 1].usage!.reasoningTokens).toBeGreaterThan(0);
  });

  it('streams content deltas, then a last event with the usage, and records the streamed request', async () => {
    const { results, failure } = await runOverWs(client, ChatCompletionDocument, ask('Say hello in a few words [sim words=12]'));
    expect(failure).toBeUndefined();
    const events = results.map((r) => {
      expect(r.errors).toBeUndefined();
      return r.data!.chatCompletion;
    });
    const last = events[events.length - 1];
    const requestId = last.requestId;
    expect(requestId).toMatch(/^req_[0-9a-f]{32}$/);
    expect(events.every((e) => e.requestId === requestId)).toBe(true);
    expect(events.filter((e) => e.done)).toEqual([last]);
    const content = events.map((e) => e.contentDelta ?? '').join('');
    expect(content.split(/\s+/).filter(Boolean).length).toBe(12);
    expect(events.filter((e) => e.contentDelta).length).toBeGreaterThan(1);
    expect(events.some((e) => e.finishReason === 'stop')).toBe(true);
    expect(last.usage).toEqual({
      promptTokens: expect.any(Number),
      completionTokens: expect.any(Number),
      totalTokens: last.usage!.promptTokens + last.usage!.completionTokens,
      reasoningTokens: 0,
      cachedTokens: expect.any(Number),
    });
    expect(last.usage!.promptTokens).toBeGreaterThan(0);
    expect(last.usage!.completionTokens).toBeGreaterThan(0);

    // The record is written before the last event goes out.
    const record = await usageRecord(requestId);
    expect(record).toMatchObject({
      id: requestId,
      model: 'gpt-4.1-mini',
      endpoint: '/graphql:chatCompletion',
      usage: { promptTokens: last.usage!.promptTokens, completionTokens: last.usage!.completionTokens, measurement: { input: 'provider', output: 'provider' } },
      routing: { statusCode: 200, wasStreaming: true, ttftMs: expect.any(Number) },
    });
    expect(record!.billing.amountMicrousd).toBeGreaterThan(0);
    expect(record!.billing.amountMicrousd).toBe(record!.billing.lineItems.reduce((sum, item) => sum + item.amountMicrousd, 0));
  });

  it('sends the request fields upstream under their wire names, streamed with usage', async () => {
    const input = ask('Answer in JSON [sim words=5]', { temperature: 0.5, topP: 0.9, maxTokens: 50, responseFormat: { type: 'json_object' } }).input;
    const { failure } = await runOverWs(client, ChatCompletionDocument, { input });
    expect(failure).toBeUndefined();
    const { requests } = await simulatorRequests(t);
    expect(requests[requests.length - 1].body).toMatchObject({
      temperature: 0.5,
      top_p: 0.9,
      response_format: { type: 'json_object' },
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('streams tool calls when tools are given', async () => {
    const { results, failure } = await runOverWs(client, ChatCompletionDocument, ask('What is the weather in Paris?', { tools: [weatherTool] }));
    expect(failure).toBeUndefined();
    const events = results.map((r) => r.data!.chatCompletion);
    const deltas = events.flatMap((e) => e.toolCallDeltas);
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas[0]).toMatchObject({ index: 0, id: expect.stringMatching(/^call_/), name: 'get_weather' });
    const args = JSON.parse(deltas.filter((d) => d.index === 0).map((d) => d.argumentsDelta ?? '').join(''));
    expect(args).toEqual({ city: expect.any(String) });
    expect(events.some((e) => e.finishReason === 'tool_calls')).toBe(true);
    expect(events[events.length - 1]).toMatchObject({ done: true, usage: expect.objectContaining({ completionTokens: expect.any(Number) }) });
  });

  it('refuses an invalid request before the stream with the gateway error, and records it once, uncharged', async () => {
    const freshKey = await t.createKey({ name: 'refused' });
    const refused = wsClient(t, { apiKey: freshKey });
    try {
      const { results, failure } = await runOverWs(refused, ChatCompletionDocument, { input: { model: 'gpt-4.1-mini', messages: [] } });
      expect(failure).toBeUndefined();
      expect(results).toHaveLength(1);
      expect(results[0].data).toBeUndefined();
      const [error] = results[0].errors!;
      expect(error).toMatchObject({
        message: expect.stringContaining('"messages"'),
        path: ['chatCompletion'],
        extensions: { code: 'invalid_parameter', status: 400, param: 'messages', request_id: expect.stringMatching(/^req_/) },
      });

      const page = (await graphqlHttp(t, freshKey, UsageRecordsDocument, {})).data!.usageRecords;
      expect(page.edges.map((e) => e.node)).toEqual([
        { id: error.extensions!.request_id, model: 'gpt-4.1-mini', endpoint: '/graphql:chatCompletion', billing: { amountMicrousd: 0 }, routing: { statusCode: 400 } },
      ]);
    } finally {
      await refused.dispose();
    }
  });

  it('reports an unknown model as model_not_found', async () => {
    const { results } = await runOverWs(client, ChatCompletionDocument, ask('hi', { model: 'no-such-model' }));
    expect(results[0].errors![0].extensions).toMatchObject({ code: 'model_not_found', status: 404, param: 'model' });
    const record = await usageRecord(results[0].errors![0].extensions!.request_id as string);
    expect(record).toMatchObject({ model: 'no-such-model', billing: { amountMicrousd: 0 }, routing: { statusCode: 404 } });
  });

  it('ends a stream that fails upstream mid-way with an error naming the request, uncharged', async () => {
    const { results, failure } = await runOverWs(client, ChatCompletionDocument, ask('Tell me a story [sim stream_error=2 words=50]'));
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((r) => !r.data!.chatCompletion.done)).toBe(true);
    const requestId = results[0].data!.chatCompletion.requestId;
    expect(failure).toEqual([
      { message: expect.any(String), extensions: { code: 'upstream_stream_error', status: 502, param: null, details: expect.any(Object), request_id: requestId } },
    ]);
    expect(await usageRecord(requestId)).toMatchObject({ billing: { amountMicrousd: 0 }, routing: { statusCode: 502, wasStreaming: true } });
  });

  it.each([
    ['unsubscribes', (unsubscribe: () => void) => unsubscribe()],
    ['disconnects', () => void 0],
  ])('aborts the upstream call when the client %s mid-stream, and still records the request', async (how) => {
    const { aborted: abortedBefore } = await simulatorRequests(t);
    const leaving = how === 'disconnects' ? wsClient(t, { authorization: `Bearer ${key}` }) : client;
    const events = await leaveMidStream(leaving, (unsubscribe) => (how === 'disconnects' ? void leaving.dispose() : unsubscribe()));
    expect(events.some((e) => e.contentDelta)).toBe(true);

    await eventually(async () => ((await simulatorRequests(t)).aborted > abortedBefore ? true : undefined), 'the simulator to see the abort');
    const record = await eventually(async () => (await usageRecord(events[0].requestId)) ?? undefined, 'the usage record');
    // Tokens produced before the client left were produced for it, and are charged.
    expect(record).toMatchObject({ routing: { statusCode: 499, wasStreaming: true } });
    expect(record.usage.completionTokens).toBeGreaterThan(0);
    expect(record.billing.amountMicrousd).toBeGreaterThan(0);
  });

  /**
   * Subscribes with `prompt`, unsubscribes once the upstream has the call (before any event), and returns the
   * usage record that call gets: the newest of the model's records, once it is newer than the one before.
   */
  async function leaveBeforeFirstEvent(prompt: string, model: string) {
    const newest = async () => (await graphqlHttp(t, key, UsageRecordsDocument, { first: 1, model })).data!.usageRecords.edges[0]?.node;
    const before = (await newest())?.id;
    const unsubscribe = client.subscribe<ChatCompletionSubscription>(
      { query: print(ChatCompletionDocument), variables: ask(prompt, { model }) },
      { next: () => undefined, error: () => undefined, complete: () => undefined },
    );
    await upstreamReceived(prompt.replace(/ \[sim .*\]$/, ''));
    unsubscribe();
    return eventually(async () => {
      const node = await newest();
      return node && node.id !== before ? node : undefined;
    }, `the usage record of "${prompt}", whose client left`);
  }

  it('records a request whose client unsubscribed before its first event', async () => {
    const record = await leaveBeforeFirstEvent('Think first [sim latency=300]', 'gpt-4.1');
    expect(record).toMatchObject({ endpoint: '/graphql:chatCompletion', routing: { statusCode: 499 } });
  });

  it('ends the upstream call of a subscription completed while that call still waits for its first byte', async () => {
    // The upstream never answers: only the operation's end can settle the call, and it is recorded as the client's leaving.
    const record = await leaveBeforeFirstEvent('Never answered [sim hang]', 'gpt-4.1-mini');
    expect(record).toMatchObject({ endpoint: '/graphql:chatCompletion', routing: { statusCode: 499 } });
  });

  // Last: it shuts the gateway down.
  it('ends open streams on shutdown, and hands their usage records over before the database closes', async () => {
    const { recorder, writer } = t.gateway.services;
    const recorded: Array<{ requestId: string; routing: { status_code: number } }> = [];
    const record = recorder.record.bind(recorder);
    recorder.record = (input) => {
      recorded.push(input);
      return record(input);
    };
    const flush = writer.flush.bind(writer);
    let recordedAtFlush = -1;
    writer.flush = () => {
      recordedAtFlush = recorded.length;
      return flush();
    };
    const watcher = wsClient(t, { authorization: `Bearer ${key}` });
    try {
      // One stream mid-way, and one still waiting for its upstream's first byte.
      const events = await leaveMidStream(watcher, () => undefined);
      const waiting = runOverWs(watcher, ChatCompletionDocument, ask('Take your time [sim latency=20000]'));
      await upstreamReceived('Take your time');

      await t.gateway.shutdown('test');
      expect(recorded).toHaveLength(2);
      expect(recorded.map((r) => r.routing.status_code)).toEqual([499, 499]);
      expect(recorded.map((r) => r.requestId)).toContain(events[0].requestId);
      expect(recordedAtFlush).toBe(2);
      expect((await waiting).results).toEqual([]);
    } finally {
      await watcher.dispose();
    }
  });
});
