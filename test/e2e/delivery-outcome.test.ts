import { fetchUsageRecord, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

/**
 * A usage record is committed before the body goes out (so it is there when
 * the response ends). A client cut off after that is charged for an answer
 * it did not receive whole: the record says so, for a dispute (the marking
 * itself is tested with the ticket, in src/billing/usage-ticket.test.ts: on
 * loopback the kernel takes megabytes a client never reads).
 */
describe.each(TEST_DATABASES)('the delivery outcome of a committed record (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  beforeAll(async () => {
    t = await startTestGateway({ database });
    key = await t.createKey({ name: 'delivery' });
  });
  afterAll(() => t?.close());

  it('is "sent" when the whole response was written, a field of the record beside routing', async () => {
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    await res.json();
    const requestId = res.headers.get('x-svc-request-id')!;
    const { body } = await fetchUsageRecord(t, key, requestId);
    expect(body.delivery).toBe('sent');
    // The spec's routing carries status and timing only.
    expect(Object.keys(body.routing).sort()).toEqual(['status_code', 'total_duration_ms', 'ttft_ms', 'was_streaming']);
    expect(body.routing).toMatchObject({ status_code: 200, was_streaming: false });

    const gql = await fetch(`${t.url}/graphql`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'query ($id: ID!) { usageRecord(id: $id) { delivery routing { statusCode } } }', variables: { id: requestId } }),
    });
    expect(await gql.json()).toEqual({ data: { usageRecord: { delivery: 'sent', routing: { statusCode: 200 } } } });
  });
});
