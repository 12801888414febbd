import { Counter, GatewayMetrics, Histogram } from './metrics';

describe('metrics', () => {
  it('escapes label values in the exposition format, and only those that need it', () => {
    const c = new Counter('x_total', 'help');
    c.inc({ route: '/v1/chat/completions', status: '200' });
    c.inc({ status: '200', route: '/v1/chat/completions' }, 2);
    c.inc({ model: 'a"b\\c\nd' });
    expect(c.render()).toBe(
      '# HELP x_total help\n# TYPE x_total counter\n' +
        'x_total{route="/v1/chat/completions",status="200"} 3\n' +
        'x_total{model="a\\"b\\\\c\\nd"} 1\n',
    );
  });

  it('counts histogram observations into cumulative buckets', () => {
    const h = new Histogram('t_seconds', 'help', [0.1, 1]);
    h.observe({ route: 'r' }, 0.05);
    h.observe({ route: 'r' }, 0.5);
    h.observe({ route: 'r' }, 5);
    expect(h.render()).toContain('t_seconds_bucket{route="r",le="0.1"} 1\nt_seconds_bucket{route="r",le="1"} 2\nt_seconds_bucket{route="r",le="+Inf"} 3\n');
  });

  it('reports the process memory gauges', () => {
    const text = new GatewayMetrics().render();
    for (const name of ['resident_memory', 'heap_total', 'heap_used', 'external_memory']) {
      expect(text).toMatch(new RegExp(`^gateway_process_${name}_bytes [1-9]\\d*$`, 'm'));
    }
  });
});
