import { createLogger } from '../observability/logger';
import { runShutdown } from './shutdown';

describe('the shutdown list', () => {
  it('runs every step in order, each after the one before it, and a failing step is logged without stopping the rest', async () => {
    const lines: string[] = [];
    const logger = createLogger('info', {}, (line) => void lines.push(line));
    const ran: string[] = [];
    await runShutdown([
      { name: 'slow first', run: () => new Promise<void>((resolve) => setTimeout(() => resolve(void ran.push('slow first')), 50)) },
      { name: 'fails', run: async () => {
        ran.push('fails');
        throw new Error('redis will not close');
      } },
      { name: 'throws at once', run: () => {
        ran.push('throws at once');
        throw new Error('not even a promise');
      } },
      { name: 'last', run: () => void ran.push('last') },
    ], logger);
    expect(ran).toEqual(['slow first', 'fails', 'throws at once', 'last']);
    const failures = lines.map((l) => JSON.parse(l) as { msg: string; step?: string }).filter((l) => l.msg.startsWith('shutdown step failed'));
    expect(failures.map((l) => l.step)).toEqual(['fails', 'throws at once']);
  });

  it('goes on past a step that has not finished within its time, naming it, and leaves it running', async () => {
    const lines: string[] = [];
    const logger = createLogger('info', {}, (line) => void lines.push(line));
    const ran: string[] = [];
    let finishHung: () => void = () => undefined;
    const started = Date.now();
    await runShutdown([
      // A job's round on a database that does not answer.
      { name: 'stop the jobs', withinMs: 50, run: () => new Promise<void>((resolve) => (finishHung = () => resolve(void ran.push('hung step ended')))) },
      { name: 'in time', withinMs: 1_000, run: () => new Promise<void>((resolve) => setTimeout(() => resolve(void ran.push('in time')), 20)) },
      { name: 'flush usage records', run: () => void ran.push('flush usage records') },
    ], logger);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(ran).toEqual(['in time', 'flush usage records']);
    const late = lines.map((l) => JSON.parse(l) as { msg: string; step?: string; within_ms?: number }).filter((l) => l.msg.startsWith('shutdown step did not finish in time'));
    expect(late).toEqual([expect.objectContaining({ step: 'stop the jobs', within_ms: 50 })]);
    finishHung();
    await new Promise((r) => setImmediate(r));
    expect(ran).toEqual(['in time', 'flush usage records', 'hung step ended']);
  });
});
