import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GatewayMetrics } from '../../src/observability/metrics';

const DASHBOARD = path.join(__dirname, '..', '..', 'docs', 'grafana', 'gateway-dashboard.json');

/** Every `expr` of the dashboard's panels, and the queries of its template variables. */
function queries(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) queries(item, out);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if ((key === 'expr' || key === 'definition') && typeof value === 'string') out.push(value);
      else queries(value, out);
    }
  }
  return out;
}

describe('the Grafana dashboard (docs/grafana/gateway-dashboard.json)', () => {
  it('queries only metrics the gateway exports', async () => {
    const dashboard: unknown = JSON.parse(readFileSync(DASHBOARD, 'utf8'));
    const text = await new GatewayMetrics().render();
    const exported = new Map<string, string>();
    for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) exported.set(name!, type!);

    const exprs = queries(dashboard);
    expect(exprs.length).toBeGreaterThan(0);
    const queried = new Set(exprs.flatMap((expr) => expr.match(/\bgateway_[a-z0-9_]+/g) ?? []));
    // A histogram's series carry a suffix: the name in `# TYPE` is the histogram's own.
    const unknown = [...queried].filter((name) => {
      if (exported.has(name)) return false;
      const base = name.replace(/_(bucket|sum|count)$/, '');
      return !(base !== name && exported.get(base) === 'histogram');
    });
    expect(unknown).toEqual([]);
    expect(queried.size).toBeGreaterThan(20);
  });
});
