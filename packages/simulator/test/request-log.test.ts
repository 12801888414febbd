import { RequestLog } from '../src/request-log';
import { AUTH, postJson, requestLog, useSimulator } from './simulator-test-kit';

const simulator = useSimulator();

describe('GET/DELETE /_sim/requests', () => {
  beforeEach(async () => {
    await fetch(`${simulator.current.url}/_sim/requests`, { method: 'DELETE' });
  });

  it('returns the received requests with their parsed bodies and no credential', async () => {
    const body = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Logged?' }] };
    await postJson(simulator.current, '/v1/chat/completions', body, { headers: { ...AUTH, 'content-type': 'application/json', 'x-trace': 'abc' } });
    await fetch(`${simulator.current.url}/v1/models`, { headers: AUTH });

    const log = await requestLog(simulator.current);

    expect(log.received).toBe(2);
    expect(log.aborted).toBe(0);
    expect(log.requests.map(({ method, path, body: loggedBody }) => ({ method, path, body: loggedBody }))).toEqual([
      { method: 'POST', path: '/v1/chat/completions', body },
      { method: 'GET', path: '/v1/models', body: null },
    ]);
    expect(log.requests[0]!.headers['x-trace']).toBe('abc');
    expect(log.requests[0]!.headers['authorization']).toBe('[redacted]');
    expect(JSON.stringify(log)).not.toContain('sk-test-key');
  });

  it('returns only the newest requests with ?limit=N, and forgets them all on DELETE', async () => {
    for (const content of ['one', 'two', 'three']) await postJson(simulator.current, '/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content }] });

    const limited = await requestLog(simulator.current, '?limit=2');
    expect(limited.requests.map((request) => (request.body as { messages: { content: string }[] }).messages[0]!.content)).toEqual(['two', 'three']);

    const deletion = await fetch(`${simulator.current.url}/_sim/requests`, { method: 'DELETE' });
    expect(deletion.status).toBe(204);
    expect(await requestLog(simulator.current)).toEqual({ requests: [], received: 0, aborted: 0 });
  });
});

describe('RequestLog', () => {
  const entry = (path: string) => ({ method: 'GET', path, headers: {}, body: null });

  it('keeps only the newest entries, oldest first, and still counts all', () => {
    const log = new RequestLog(3);
    for (const path of ['/1', '/2', '/3', '/4', '/5']) log.record(entry(path));

    const snapshot = log.snapshot();
    expect(snapshot.requests.map((request) => request.path)).toEqual(['/3', '/4', '/5']);
    expect(snapshot.received).toBe(5);
  });

  it('keeps nothing with a capacity of 0', () => {
    const log = new RequestLog(0);
    log.record(entry('/1'));
    expect(log.snapshot()).toEqual({ requests: [], received: 1, aborted: 0 });
  });
});
