import { GatewayMetrics, valueOf } from './metrics';

describe('metrics', () => {
  it('renders labelled series in the exposition format, label values escaped', async () => {
    const m = new GatewayMetrics();
    m.httpRequests.inc({ method: 'POST', route: '/v1/chat/completions', status: '200' });
    m.httpRequests.inc({ status: '200', route: '/v1/chat/completions', method: 'POST' }, 2);
    m.tokens.inc({ model: 'a"b\\c\nd', dimension: 'input', account: 'acct_1' }, 5);
    const text = await m.render();
    expect(text).toContain('gateway_http_requests_total{method="POST",route="/v1/chat/completions",status="200"} 3\n');
    expect(text).toContain('gateway_tokens_total{model="a\\"b\\\\c\\nd",dimension="input",account="acct_1"} 5\n');
    expect(await valueOf(m.httpRequests, { method: 'POST', route: '/v1/chat/completions', status: '200' })).toBe(3);
  });

  it('counts histogram observations into cumulative buckets', async () => {
    const m = new GatewayMetrics();
    m.upstreamDuration.observe({ provider: 'openai', model: 'm' }, 0.02);
    m.upstreamDuration.observe({ provider: 'openai', model: 'm' }, 0.3);
    const text = await m.registry.getSingleMetricAsString('gateway_upstream_request_duration_seconds');
    expect(text).toContain('gateway_upstream_request_duration_seconds_bucket{le="0.025",provider="openai",model="m"} 1\n');
    expect(text).toContain('gateway_upstream_request_duration_seconds_bucket{le="0.5",provider="openai",model="m"} 2\n');
    expect(text).toMatch(/^gateway_upstream_request_duration_seconds_count{provider="openai",model="m"} 2$/m);
  });

  it('reports Node process metrics, and video tasks by state read when scraped', async () => {
    const m = new GatewayMetrics();
    let calls = 0;
    m.countVideoTasksWith(async () => [{ state: 'queued', count: 2 + calls++ }, { state: 'completed', count: 5 }]);
    const text = await m.render();
    expect(text).toMatch(/^gateway_process_resident_memory_bytes [1-9]\d*$/m);
    expect(text).toMatch(/^gateway_nodejs_heap_size_used_bytes [1-9]\d*$/m);
    expect(text).toContain('gateway_video_tasks{state="queued"} 2\n');
    expect(await m.render()).toContain('gateway_video_tasks{state="queued"} 3\n');
  });

  it('keeps registries apart, so several gateways in one process do not clash', async () => {
    const a = new GatewayMetrics();
    const b = new GatewayMetrics();
    a.unhandledRejections.inc();
    expect(await valueOf(a.unhandledRejections)).toBe(1);
    expect(await valueOf(b.unhandledRejections)).toBe(0);
  });
});
