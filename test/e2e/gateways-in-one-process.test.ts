import { eventually } from '../support/eventually';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver';
import { simulatorRequests, startTestGateway, type TestGateway } from '../support/test-gateway';

/**
 * Two gateways started in one process keep apart what each keeps of its
 * upstreams and traces: every provider channel has its own retry budget in
 * each gateway, and each gateway exports its spans through its own tracer.
 */
describe('two gateways in one process', () => {
  let a: TestGateway;
  let b: TestGateway;
  let receiverA: OtlpReceiver;
  let receiverB: OtlpReceiver;
  let keyA: string;
  let keyB: string;

  beforeAll(async () => {
    [receiverA, receiverB] = await Promise.all([startOtlpReceiver(), startOtlpReceiver()]);
    a = await startTestGateway({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiverA.url, OTEL_SERVICE_NAME: 'gateway-a' } });
    b = await startTestGateway({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiverB.url, OTEL_SERVICE_NAME: 'gateway-b' } });
    [keyA, keyB] = await Promise.all([a.createKey({ name: 'a' }), b.createKey({ name: 'b' })]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await Promise.all([receiverA, receiverB].map((r) => r && new Promise((resolve) => r.server.close(resolve))));
  });

  const chat = (t: TestGateway, key: string, model: string, content: string, headers: Record<string, string> = {}) =>
    fetch(`${t.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ model, messages: [{ role: 'user', content }] }),
    });
  /** How many times `t`'s upstream received a request carrying `marker`: 2 when the call was retried. */
  const upstreamCalls = async (t: TestGateway, marker: string) => (await simulatorRequests(t)).requests.filter((r) => JSON.stringify(r.body).includes(marker)).length;

  it("spends one channel's retry budget without touching another channel's, or the same channel's in the other gateway", async () => {
    // An outage of A's openai channel (every call fails): each call is retried until that channel's budget is spent.
    let spentAfter: number | undefined;
    for (let call = 1; call <= 20 && spentAfter === undefined; call++) {
      const marker = `outage ${call}`;
      const res = await chat(a, keyA, 'gpt-4.1-mini', `${marker} [sim status=503]`);
      expect(res.status).toBeGreaterThanOrEqual(500);
      if ((await upstreamCalls(a, marker)) === 1) spentAfter = call;
    }
    // Ten retries saved, each call earning a fifth of one: the budget runs out after about a dozen calls.
    expect(spentAfter).toBeGreaterThan(10);

    // A failure that passes on a retry: refused on the spent channel, retried and answered on every other.
    const passing = '[sim status=503 fail_times=1]';
    const spent = await chat(a, keyA, 'gpt-4.1-mini', `spent channel ${passing}`);
    expect(spent.status).toBeGreaterThanOrEqual(500);
    expect(await upstreamCalls(a, 'spent channel')).toBe(1);

    const otherChannel = await chat(a, keyA, 'claude-haiku-4-5', `other channel ${passing}`);
    expect(otherChannel.status).toBe(200);
    expect(await upstreamCalls(a, 'other channel')).toBe(2);

    const otherGateway = await chat(b, keyB, 'gpt-4.1-mini', `other gateway ${passing}`);
    expect(otherGateway.status).toBe(200);
    expect(await upstreamCalls(b, 'other gateway')).toBe(2);
  });

  it("exports each gateway's spans through its own tracer, under its own service name", async () => {
    const traceA = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1';
    const traceB = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb2';
    const [resA, resB] = await Promise.all([
      chat(a, keyA, 'gpt-4.1-mini', 'traced on a', { traceparent: `00-${traceA}-00f067aa0ba902b7-01` }),
      chat(b, keyB, 'gpt-4.1-mini', 'traced on b', { traceparent: `00-${traceB}-00f067aa0ba902b7-01` }),
    ]);
    expect([resA.status, resB.status]).toEqual([200, 200]);
    await Promise.all([a.gateway.services.tracing.flush(), b.gateway.services.tracing.flush()]);
    const requestSpan = (r: OtlpReceiver, traceId: string) => r.spans.find((s) => s.traceId === traceId && s.name === 'POST /v1/chat/completions');
    await eventually(async () => requestSpan(receiverA, traceA), "gateway A's request span");
    await eventually(async () => requestSpan(receiverB, traceB), "gateway B's request span");
    expect(requestSpan(receiverA, traceA)!.resource['service.name']).toBe('gateway-a');
    expect(requestSpan(receiverB, traceB)!.resource['service.name']).toBe('gateway-b');
    // Each receiver got its own gateway's spans only: the request, its attempt and its record write.
    expect(receiverA.spans.filter((s) => s.traceId === traceB)).toEqual([]);
    expect(receiverB.spans.filter((s) => s.traceId === traceA)).toEqual([]);
    expect(receiverA.spans.filter((s) => s.traceId === traceA).length).toBeGreaterThanOrEqual(3);
    expect(receiverB.spans.filter((s) => s.traceId === traceB).length).toBeGreaterThanOrEqual(3);
  });
});
