import { CallSpend } from '../billing/call-spend';
import type { Settlement } from '../billing/usage-ticket';
import type { Candidate } from '../catalog/catalog';
import { GatewayError } from '../errors/gateway-error';
import { silentLogger } from '../observability/logger';
import { GatewayMetrics, valueOf } from '../observability/metrics';
import { UnsupportedParameterError } from '../providers/unsupported-parameter';
import { UpstreamError } from '../providers/upstream-error';
import type { RequestContext } from './request-context';
import { Tracing } from '../observability/tracing';
import { newRouting, type Routing } from './routing';
import { tryRoutes } from './route-attempts';

function candidate(provider: string): Candidate {
  return {
    model: { id: 'gpt-test', config: {} as Candidate['model']['config'], routes: [] },
    route: { provider: { name: provider } as Candidate['route']['provider'], upstreamModel: `${provider}-model`, lane: 'standard', config: {} as Candidate['route']['config'] },
  };
}

function context(aborted = false): { ctx: RequestContext; settled: Settlement[] } {
  const settled: Settlement[] = [];
  const abort = new AbortController();
  if (aborted) abort.abort();
  const ticket = { settle: async (s: Settlement) => void settled.push(s) };
  const principal = {} as RequestContext['principal'];
  return { ctx: { requestId: 'req_1', principal, signal: abort.signal, ticket: ticket as unknown as RequestContext['ticket'], spend: new CallSpend(null, principal, 'req_1'), logger: silentLogger }, settled };
}

const retryable = (status = 503) => new UpstreamError('overloaded', { status, retryable: true });
const final = (status = 400) => new UpstreamError('bad request', { status, retryable: false, code: 'context_length_exceeded' });
const routes = [candidate('a'), candidate('b'), candidate('c')];

describe('tryRoutes: routing with fallback and its settlement', () => {
  /** Each test's own routing state (channel health, retry budgets), as each gateway has its own. */
  const routing = (metrics = new GatewayMetrics()): Routing => newRouting(metrics, Tracing.off);

  it('answers from the first route that answers, and settles nothing itself', async () => {
    const { ctx, settled } = context();
    const tried: string[] = [];
    const answer = await tryRoutes(ctx, routing(), routes, async ({ candidate: c, number }) => {
      tried.push(`${c.route.provider.name}#${number}`);
      if (c.route.provider.name === 'a') throw retryable();
      return 'ok';
    });
    expect(answer).toBe('ok');
    expect(tried).toEqual(['a#1', 'b#2']);
    expect(settled).toEqual([]);
  });

  it('counts each upstream failure and each fallback by provider', async () => {
    const { ctx } = context();
    const metrics = new GatewayMetrics();
    await tryRoutes(ctx, routing(metrics), routes, async ({ number }) => {
      if (number < 3) throw retryable(529);
      return 'ok';
    });
    expect(await valueOf(metrics.upstreamErrors, { provider: 'a', status: '529' })).toBe(1);
    expect(await valueOf(metrics.upstreamFallbacks, { provider: 'b' })).toBe(1);
    expect(await valueOf(metrics.upstreamFallbacks, { provider: 'c' })).toBe(0);
  });

  it('stops at a failure that is not retryable, settles it uncharged naming the route, and throws the gateway error', async () => {
    const { ctx, settled } = context();
    const failure = tryRoutes(ctx, routing(), routes, async () => {
      throw final();
    });
    await expect(failure).rejects.toMatchObject({ status: 400, code: 'context_length_exceeded' });
    expect(settled).toEqual([
      expect.objectContaining({
        statusCode: 400, charge: false, usage: null, errorCode: 'context_length_exceeded',
        pricedAs: { modelId: 'gpt-test', lane: 'standard' },
        servedBy: { provider: 'a', upstream_model: 'a-model', lane: 'standard', attempts: 1 },
      }),
    ]);
  });

  it('settles the last route when every route failed, with the number of attempts (the last route tried twice)', async () => {
    const { ctx, settled } = context();
    const tried: string[] = [];
    const metrics = new GatewayMetrics();
    await expect(tryRoutes(ctx, routing(metrics), routes, async ({ candidate: c, number }) => {
      tried.push(`${c.route.provider.name}#${number}`);
      throw retryable();
    }, { wasStreaming: true })).rejects.toMatchObject({ code: 'upstream_overloaded', status: 503 });
    expect(tried).toEqual(['a#1', 'b#2', 'c#3', 'c#4']);
    expect(await valueOf(metrics.upstreamRetries, { provider: 'c' })).toBe(1);
    expect(settled).toEqual([expect.objectContaining({ statusCode: 503, wasStreaming: true, servedBy: expect.objectContaining({ provider: 'c', attempts: 4 }) })]);
  });

  it('retries the last route once after a failure that may pass, and answers from the retry', async () => {
    const { ctx } = context();
    let calls = 0;
    const answer = await tryRoutes(ctx, routing(), [candidate('solo')], async () => {
      if (++calls === 1) throw retryable(429);
      return 'ok';
    });
    expect([answer, calls]).toEqual(['ok', 2]);
  });

  it('does not retry a time-out, a long Retry-After, or when the caller counts its attempts itself', async () => {
    for (const [err, options] of [
      [new UpstreamError('slow', { status: 0, retryable: true, cause: 'timeout' }), {}],
      [new UpstreamError('limited', { status: 429, retryable: true, retryAfterSeconds: 60 }), {}],
      [retryable(), { retryLastRoute: false }],
    ] as const) {
      const { ctx } = context();
      let calls = 0;
      await expect(tryRoutes(ctx, routing(), [candidate('solo')], async () => {
        calls++;
        throw err;
      }, options)).rejects.toBeDefined();
      expect(calls).toBe(1);
    }
  });

  it('tries a provider channel that keeps failing after the others, and an answer from it ends its cool-down', async () => {
    const flaky = candidate('flaky');
    const steady = candidate('steady');
    const gateway = routing();
    const order = async (answering: string) => {
      const { ctx } = context();
      const tried: string[] = [];
      await tryRoutes(ctx, gateway, [flaky, steady], async ({ candidate: c }) => {
        tried.push(c.route.provider.name);
        if (c.route.provider.name !== answering) throw retryable();
        return 'ok';
      });
      return tried;
    };
    for (let i = 0; i < 5; i++) expect(await order('steady')).toEqual(['flaky', 'steady']);
    // Five failures in a row: cooling, so tried last.
    expect(await order('steady')).toEqual(['steady']);
    expect(await order('flaky')).toEqual(['steady', 'flaky']);
    // It answered: back in its place.
    expect(await order('flaky')).toEqual(['flaky']);
  });

  it('skips a route whose protocol cannot express the request, but reports an earlier upstream failure over it', async () => {
    const { ctx } = context();
    const failure = tryRoutes(ctx, routing(), routes.slice(0, 2), async ({ number }) => {
      if (number === 1) throw retryable(502);
      throw new UnsupportedParameterError('top_k', 'not here');
    });
    await expect(failure).rejects.toMatchObject({ code: 'upstream_error', status: 502 });
  });

  it('reports the parameter when no route can express the request', async () => {
    const { ctx } = context();
    const failure = tryRoutes(ctx, routing(), routes, async () => {
      throw new UnsupportedParameterError('top_k', 'not here');
    });
    await expect(failure).rejects.toMatchObject({ code: 'unsupported_parameter', options: { param: 'top_k' } });
  });

  it('does not fall back once the client has gone, and records 499 uncharged', async () => {
    const { ctx, settled } = context(true);
    const tried: number[] = [];
    const cause = retryable();
    await expect(tryRoutes(ctx, routing(), routes, async ({ number }) => { tried.push(number); throw cause; })).rejects.toBe(cause);
    expect(tried).toEqual([1]);
    expect(settled).toEqual([expect.objectContaining({ statusCode: 499, errorCode: 'client_closed_request', charge: false })]);
  });

  it('lets the capability reword the final error', async () => {
    const { ctx, settled } = context();
    const explained = new GatewayError('invalid_prompt', 'flagged');
    await expect(tryRoutes(ctx, routing(), routes, async () => { throw final(); }, { explain: () => explained })).rejects.toBe(explained);
    expect(settled[0]).toMatchObject({ statusCode: 400, errorCode: 'invalid_prompt' });
  });

  it('throws a bug as it is, unsettled, for the door to record as an internal error', async () => {
    const { ctx, settled } = context();
    const bug = new TypeError('undefined is not a function');
    await expect(tryRoutes(ctx, routing(), routes, async () => { throw bug; })).rejects.toBe(bug);
    expect(settled).toEqual([]);
  });
});
