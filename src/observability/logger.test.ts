import { createLogger } from './logger';

describe('structured logger', () => {
  it('writes one JSON object per line at or above its level, with base and child fields', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { service: 'gateway' }, (line) => lines.push(line));
    logger.debug('hidden');
    logger.info('shown', { a: 1 });
    logger.child({ request_id: 'req_1' }).error('failed', { err: new Error('boom'), amount: 12n });
    expect(lines).toHaveLength(2);
    expect(lines.every((l) => l.endsWith('\n'))).toBe(true);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 'info', msg: 'shown', service: 'gateway', a: 1 });
    expect(JSON.parse(lines[1])).toMatchObject({ level: 'error', request_id: 'req_1', service: 'gateway', amount: '12', err: { name: 'Error', message: 'boom' } });
    expect(logger.enabled('debug')).toBe(false);
    expect(createLogger('silent').enabled('error')).toBe(false);
  });
});

describe('structured logger redaction', () => {
  it('redacts keys, upstream keys and Authorization headers by path, wherever they were logged', () => {
    const lines: string[] = [];
    const logger = createLogger('info', {}, (line) => lines.push(line));
    logger.info('upstream call', {
      headers: { authorization: 'Bearer sk-live-123', 'x-api-key': 'tvly-secret', 'content-type': 'application/json' },
      provider: { name: 'openai', api_key: 'sk-upstream' },
      key: 'gw-secret-key',
      key_id: 'key_abc',
    });
    logger.child({ authorization: 'Bearer sk-child' }).warn('child');
    const [first, second] = lines.map((l) => JSON.parse(l));
    expect(first).toMatchObject({
      headers: { authorization: '[redacted]', 'x-api-key': '[redacted]', 'content-type': 'application/json' },
      provider: { name: 'openai', api_key: '[redacted]' },
      key: '[redacted]',
      key_id: 'key_abc',
    });
    expect(second.authorization).toBe('[redacted]');
    expect(lines.join('')).not.toMatch(/sk-live|tvly-secret|sk-upstream|gw-secret|sk-child/);
  });
});
