import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { readEnv } from '../../src/config/env';
import { validateConfig } from '../../src/config/load-config';
import { startGateway, type RunningGateway } from '../../src/gateway/start';
import { createLogger } from '../../src/observability/logger';
import { TaskDocument, TasksDocument } from '../graphql/generated/graphql';
import { graphqlHttp } from '../graphql/graphql-test-client';
import { eventually } from '../support/eventually';
import { fastVideoConfig } from '../support/fast-video-config';
import { freshPgliteDataDir } from '../support/pglite-template';
import { createTestDatabase } from '../support/postgres-database';
import { ADMIN_TOKEN, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

/**
 * Video upstreams on loopback whose failures say what no client may read: a
 * masked credential and an internal host name. The task a client reads
 * (REST and GraphQL) carries the gateway's own words; the upstream's stay in
 * the structured logs, with the task id.
 */
const SECRET = 'xai-****abcd';
const HOST = 'render-7.internal.corp';
const LEAK = /xai-\*\*\*\*abcd|render-7\.internal\.corp|\*\*\*\*/;

type Behaviour = 'refuse_submit' | 'refuse_poll' | 'fail_free_code' | 'fail_plain_code' | 'fail_moderated';

function fakeVideoUpstream(): Promise<Server> {
  const fates = new Map<string, Behaviour>();
  let next = 0;
  const json = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const path = req.url ?? '';
      if (req.method === 'POST') {
        const behaviour = (/\b(refuse_submit|refuse_poll|fail_free_code|fail_plain_code|fail_moderated)\b/.exec(raw)?.[1] ?? 'fail_plain_code') as Behaviour;
        if (behaviour === 'refuse_submit') {
          return json(res, 400, { error: { message: `Incorrect API key provided: ${SECRET}. Ask ops at ${HOST}.`, type: 'invalid_request_error', code: null } });
        }
        const id = `up_${next++}`;
        fates.set(id, behaviour);
        // xAI answers a request id; OpenAI a Video object.
        return path === '/v1/videos/generations' ? json(res, 200, { request_id: id }) : json(res, 200, { id, object: 'video', status: 'queued', progress: 0 });
      }
      const id = decodeURIComponent(path.split('/').pop() ?? '');
      const fate = fates.get(id);
      if (fate === 'refuse_poll') return json(res, 403, { error: { message: `Key ${SECRET} may not read tasks on ${HOST}`, type: 'permission_error', code: 'forbidden' } });
      // One failed answer both APIs read: xAI's status object and OpenAI's Video object share these fields.
      const error =
        fate === 'fail_free_code'
          ? { code: `worker ${HOST} crashed`, message: `GPU worker ${HOST} failed with key ${SECRET}` }
          : fate === 'fail_moderated'
            ? { code: 'content_moderation', message: `Your prompt about <another tenant's text> on ${HOST} was blocked` }
            : { code: 'generation_failed', message: `render ${HOST} out of memory (key ${SECRET})` };
      return json(res, 200, { id, object: 'video', status: 'failed', progress: 10, error });
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe.each(TEST_DATABASES)('video task errors never carry the upstream\'s text (%s)', (database) => {
  let upstream: Server;
  let gateway: RunningGateway;
  let t: TestGateway;
  let key: string;
  const logs: string[] = [];
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    upstream = await fakeVideoUpstream();
    const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
    const fast = fastVideoConfig({ first_poll_after_ms: 0 });
    const config = validateConfig({ ...fast, providers: { ...fast.providers, xai: { type: 'xai', base_url: base }, openai: { type: 'openai', base_url: base } } }, 'test config');
    const pg = database === 'postgres' ? await createTestDatabase() : undefined;
    const dataDir = await freshPgliteDataDir();
    const rawEnv = {
      PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', GATEWAY_DATA_DIR: dataDir, GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, LOG_REQUESTS: 'false',
      GATEWAY_VIDEO_POLL_IDLE_MS: '50', ...(pg ? { DATABASE_URL: pg.url } : {}),
    };
    gateway = await startGateway({ env: readEnv(rawEnv), rawEnv, loaded: { config, document: config, source: 'test config' }, logger: createLogger('debug', {}, (line) => void logs.push(line)) });
    t = { url: gateway.url } as TestGateway;
    cleanup = async () => {
      await gateway.shutdown('test finished');
      await pg?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    };
    const res = await fetch(`${gateway.url}/api/admin/keys`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'errors' }) });
    key = ((await res.json()) as { key: string }).key;
  });
  afterAll(async () => {
    await cleanup?.();
    await new Promise((r) => upstream?.close(r));
  });

  async function submit(body: Record<string, unknown>) {
    const res = await fetch(`${gateway.url}/v1/videos`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  }

  async function read(id: string): Promise<any> {
    return (await fetch(`${gateway.url}/v1/videos/${id}`, { headers: { authorization: `Bearer ${key}` } })).json();
  }

  async function finished(id: string): Promise<any> {
    return eventually(async () => {
      const body = await read(id);
      return body.status === 'failed' || body.status === 'expired' ? body : undefined;
    }, `task ${id} to fail`, 8000);
  }

  function loggedFor(id: string): string {
    return logs.filter((line) => line.includes(id)).join('\n');
  }

  it.each([
    ['xAI', 'a poll the upstream refuses', 'gen-imagine-video', 'refuse_poll', 'upstream_error', 'The upstream refused the task when it was polled; the charge was refunded. Submit it again.'],
    ['xAI', 'a failure whose code is free text', 'gen-imagine-video', 'fail_free_code', 'video_generation_failed', 'The upstream could not generate the video; the charge was refunded.'],
    ['xAI', 'a failure with a plain code', 'gen-imagine-video', 'fail_plain_code', 'generation_failed', 'The upstream could not generate the video; the charge was refunded.'],
    ['xAI', 'a moderation failure', 'gen-imagine-video', 'fail_moderated', 'content_moderation', 'The upstream declined to generate this video under its content policy; the charge was refunded.'],
    ['OpenAI', 'a poll the upstream refuses', 'sora-2', 'refuse_poll', 'upstream_error', 'The upstream refused the task when it was polled; the charge was refunded. Submit it again.'],
    ['OpenAI', 'a failure whose code is free text', 'sora-2', 'fail_free_code', 'video_generation_failed', 'The upstream could not generate the video; the charge was refunded.'],
    ['OpenAI', 'a failure with a plain code', 'sora-2', 'fail_plain_code', 'generation_failed', 'The upstream could not generate the video; the charge was refunded.'],
  ])('%s: %s', async (_api, _what, model, behaviour, code, message) => {
    const submitted = await submit({ model, prompt: `clip ${behaviour}` });
    expect(submitted.status).toBe(200);
    const id = submitted.body.request_id ?? submitted.body.id;
    const rest = await finished(id);
    expect(rest.error).toEqual({ code, message });
    expect(JSON.stringify(rest)).not.toMatch(LEAK);

    const task = (await graphqlHttp(t, key, TaskDocument, { id })).data!.task!;
    expect(task.error).toEqual({ code, message });
    const list = (await graphqlHttp(t, key, TasksDocument, { first: 50 })).data!.tasks;
    expect(JSON.stringify(list)).not.toMatch(LEAK);

    // Kept for operators: the upstream's own words, with the task id.
    await eventually(async () => (LEAK.test(loggedFor(id)) ? true : undefined), 'the upstream text in the logs');
    expect(logs.find((line) => line.includes(id) && LEAK.test(line))).toMatch(/"level":"warn"/);
  });

  it('a refused submission: the task the client finds later says only that it was refused', async () => {
    const submitted = await submit({ model: 'gen-imagine-video', prompt: 'clip refuse_submit' });
    expect(submitted.status).toBe(400);
    const list = (await graphqlHttp(t, key, TasksDocument, { first: 50, status: 'FAILED' })).data!.tasks;
    const refused = list.edges.map((e) => e.node).find((n) => n.prompt === 'clip refuse_submit')!;
    expect(refused.error).toEqual({ code: 'submission_failed', message: 'The upstream refused the submission; nothing was charged.' });
    expect(JSON.stringify(list)).not.toMatch(LEAK);
    expect(JSON.stringify(await read(refused.id))).not.toMatch(LEAK);
    expect(LEAK.test(loggedFor(refused.id))).toBe(true);
  });
});
