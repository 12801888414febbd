import { eventually } from '../support/eventually';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver';
import { startTestGateway, type TestGateway } from '../support/test-gateway';

describe('OpenTelemetry traces over OTLP/HTTP', () => {
  let t: TestGateway;
  let key: string;
  let receiver: OtlpReceiver;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    t = await startTestGateway({ database: 'pglite', logLevel: 'info', env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'gateway-under-test', LOG_REQUESTS: 'true' } });
    key = await t.createKey({ name: 'traced' });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => receiver.server.close(resolve));
  });

  it('continues the client\'s trace: a request span, a child per upstream attempt with GenAI attributes, the record write; traceparent goes upstream', async () => {
    const traceId = '4bf92f3577b34da6a3ce929e0e4736aa';
    const clientSpan = '00f067aa0ba902b7';
    const res = await fetch(`${t.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', traceparent: `00-${traceId}-${clientSpan}-01` },
      body: JSON.stringify({ model: 'fast', messages: [{ role: 'user', content: 'traced fallback [sim status=503 fail_times=1]' }] }),
    });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-svc-request-id');
    await t.gateway.services.tracing.flush();
    const ours = () => receiver.spans.filter((s) => s.traceId === traceId);
    await eventually(async () => ours().find((s) => s.name === 'POST /v1/chat/completions'), 'the request span');
    const server = ours().find((s) => s.name === 'POST /v1/chat/completions')!;
    expect(server.parentSpanId).toBe(clientSpan);
    expect(server.resource['service.name']).toBe('gateway-under-test');
    expect(server.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.response.status_code': 200, 'gateway.request_id': requestId, 'http.route': '/v1/chat/completions' });
    expect(server.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    expect(server.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
    expect(server.attributes['gateway.billed_microusd']).toBeGreaterThan(0);
    const attempts = ours().filter((s) => s.parentSpanId === server.spanId && s.attributes['gen_ai.operation.name'] === 'chat').sort((a, b) => Number(a.attributes['gateway.attempt']) - Number(b.attributes['gateway.attempt']));
    expect(attempts.map((a) => [a.attributes['gen_ai.provider.name'], a.attributes['gen_ai.request.model'], a.status?.code ?? 0])).toEqual([['openai', 'fast', 2], ['anthropic', 'fast', 0]]);
    expect(attempts[1]!.attributes['gen_ai.response.model']).toBe('claude-haiku-4-5');
    expect(attempts[1]!.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
    expect(attempts.every((a) => !('gen_ai.input.messages' in a.attributes))).toBe(true);
    // The record's write is a child of the request's span.
    expect(ours().filter((s) => s.name === 'usage_record.write').map((s) => s.parentSpanId)).toEqual([server.spanId]);
    expect(receiver.contentTypes.every((c) => c.startsWith('application/json'))).toBe(true);
    // Each upstream call carried the trace on, as the child of its attempt's span.
    const upstream = (await (await fetch(`${t.simulatorUrl}/_sim/requests`)).json()) as { requests: Array<{ path: string; headers: Record<string, string> }> };
    const sent = upstream.requests.filter((r) => r.headers.traceparent?.includes(traceId)).map((r) => r.headers.traceparent!.split('-')[2]);
    expect(sent).toEqual(attempts.map((a) => a.spanId));
    // The request's log lines name its trace: the fallback warning, and the access log line.
    const lines = t.logs().map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.request_id === requestId);
    expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['upstream failed before the first byte; trying the next route', 'request']));
    for (const line of lines) expect(line).toMatchObject({ trace_id: traceId, span_id: server.spanId });
  });

  it('starts a trace of its own without a traceparent, and keeps trace ids off log lines outside a request', async () => {
    const res = await fetch(`${t.baseURL}/embeddings`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'text-embedding-3-small', input: 'hi' }) });
    const requestId = res.headers.get('x-svc-request-id');
    await t.gateway.services.tracing.flush();
    await eventually(async () => receiver.spans.find((s) => s.attributes['gateway.request_id'] === requestId && s.name === 'POST /v1/embeddings'), 'the embeddings request span');
    const span = receiver.spans.find((s) => s.name === 'POST /v1/embeddings')!;
    expect(span.parentSpanId ?? '').toBe('');
    expect(receiver.spans.some((s) => s.parentSpanId === span.spanId && s.attributes['gen_ai.operation.name'] === 'embeddings')).toBe(true);
    // Log lines outside any request carry no trace.
    const unrelated = t.logs().map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.request_id === undefined);
    expect(unrelated.every((l) => l.trace_id === undefined)).toBe(true);
  });
});
