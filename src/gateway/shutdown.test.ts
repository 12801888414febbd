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
});
