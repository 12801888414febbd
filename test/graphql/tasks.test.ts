import { fastVideoConfig } from '../support/fast-video-config';
import { startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';
import { print } from 'graphql';
import { TaskDocument, TasksDocument, TaskUpdatedDocument, TasksUpdatedDocument, UsageRecordDocument, type TasksUpdatedSubscription } from './generated/graphql';
import { graphqlHttp, runOverWs, wsClient } from './graphql-test-client';
import { eventually } from '../support/eventually';

describe.each(TEST_DATABASES)('video tasks over GraphQL (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  let other: string;

  beforeAll(async () => {
    t = await startTestGateway({ database, config: fastVideoConfig() });
    key = await t.createKey({ name: 'tasks' });
    other = await t.createKey({ name: 'other' });
    // GraphQL starts on its first request; started here, the first subscription below sees the task from its start.
    expect((await graphqlHttp(t, key, TasksDocument, {})).status).toBe(200);
  });
  afterAll(() => t?.close());

  async function submit(body: Record<string, unknown>, as = key): Promise<string> {
    const res = await fetch(`${t.url}/v1/videos`, { method: 'POST', headers: { authorization: `Bearer ${as}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const json = (await res.json()) as { request_id?: string; id?: string };
    return (json.request_id ?? json.id)!;
  }

  it('taskUpdated pushes the current state, each change, and ends after the final one', async () => {
    const id = await submit({ model: 'gen-imagine-video', prompt: 'live [sim gen_ms=700]', duration: 5 });
    const client = wsClient(t, { authorization: `Bearer ${key}` });
    const { results, failure } = await runOverWs(client, TaskUpdatedDocument, { id });
    await client.dispose();
    expect(failure).toBeUndefined();
    const states = results.map((r) => r.data!.taskUpdated);
    expect(states[0].id).toBe(id);
    expect(states[0].status).toMatch(/QUEUED|IN_PROGRESS/);
    const last = states[states.length - 1];
    expect(last).toMatchObject({ status: 'COMPLETED', progress: 100, durationSeconds: 5, respectModeration: true, videoUrl: expect.stringMatching(/^https:/) });
    expect(states.length).toBeGreaterThanOrEqual(2);
  });

  it('tasksUpdated carries every task of the key and nothing of another key', async () => {
    const client = wsClient(t, { authorization: `Bearer ${key}` });
    const seen: Array<{ id: string; status: string }> = [];
    const unsubscribe = client.subscribe(
      { query: print(TasksUpdatedDocument) },
      { next: (r) => seen.push((r.data as TasksUpdatedSubscription).tasksUpdated), error: () => undefined, complete: () => undefined },
    );
    const seenOf = (id: string) => () => `task ${id} in ${JSON.stringify(seen)}`;
    // An update of a task of mine shows the subscription is live before the other key's task starts. On a
    // loaded machine the subscription can start after a short task has ended: submit another until one shows.
    let mine: string | undefined;
    for (let attempt = 1; !mine; attempt++) {
      const id = await submit({ model: 'sora-2', prompt: 'mine [sim gen_ms=300]' });
      const shown = await eventually(async () => (seen.some((s) => s.id === id) ? true : undefined), seenOf(id), 4000).catch((err: Error) => {
        if (attempt === 5) throw err;
      });
      if (shown) mine = id;
    }
    const theirs = await submit({ model: 'sora-2', prompt: 'theirs [sim gen_ms=100]' }, other);
    await eventually(async () => ((await graphqlHttp(t, other, TaskDocument, { id: theirs })).data?.task?.status === 'COMPLETED' ? true : undefined), `task ${theirs} to complete`, 8000);
    // A task of mine that ends after theirs: its last update comes after any update of theirs would have.
    const later = await submit({ model: 'sora-2', prompt: 'later [sim gen_ms=100]' });
    for (const id of [mine, later]) await eventually(async () => (seen.some((s) => s.id === id && s.status === 'COMPLETED') ? true : undefined), seenOf(id), 8000);
    unsubscribe();
    await client.dispose();
    expect(seen.some((s) => s.id === theirs)).toBe(false);
  });

  it('task and tasks are scoped to the key, paginated and filtered', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await submit({ model: 'gen-imagine-video', prompt: `page ${i} [sim gen_ms=100]` }));
    const fail = await submit({ model: 'gen-imagine-video', prompt: 'bad [sim gen_ms=100 fail]' });
    await eventually(async () => ((await graphqlHttp(t, key, TaskDocument, { id: fail })).data?.task?.status === 'FAILED' ? true : undefined), 'the failure');

    const mine = await graphqlHttp(t, key, TaskDocument, { id: ids[0] });
    expect(mine.data!.task).toMatchObject({ id: ids[0], model: 'gen-imagine-video', prompt: 'page 0 [sim gen_ms=100]', resolution: '480p', aspectRatio: '16:9' });
    expect((await graphqlHttp(t, other, TaskDocument, { id: ids[0] })).data!.task).toBeNull();

    const first = await graphqlHttp(t, key, TasksDocument, { first: 2, model: 'gen-imagine-video' });
    expect(first.data!.tasks.edges).toHaveLength(2);
    expect(first.data!.tasks.pageInfo.hasNextPage).toBe(true);
    const second = await graphqlHttp(t, key, TasksDocument, { first: 2, after: first.data!.tasks.pageInfo.endCursor, model: 'gen-imagine-video' });
    const seenIds = [...first.data!.tasks.edges, ...second.data!.tasks.edges].map((e) => e.node.id);
    expect(new Set(seenIds).size).toBe(seenIds.length);
    expect(seenIds[0]).toBe(fail); // newest first

    const failed = await graphqlHttp(t, key, TasksDocument, { status: 'FAILED' });
    expect(failed.data!.tasks.edges.map((e) => e.node.id)).toEqual([fail]);
    expect(failed.data!.tasks.edges[0].node.error).toMatchObject({ code: 'generation_failed' });
    expect((await graphqlHttp(t, other, TasksDocument, {})).data!.tasks.edges.every((e) => !ids.includes(e.node.id))).toBe(true);

    const bad = await graphqlHttp(t, key, TasksDocument, { first: 0 });
    expect(bad.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
  });

  it('taskUpdated of another key\'s task is refused as not found', async () => {
    const id = await submit({ model: 'gen-imagine-video', prompt: 'private [sim gen_ms=100]' });
    const client = wsClient(t, { authorization: `Bearer ${other}` });
    const { results, failure } = await runOverWs(client, TaskUpdatedDocument, { id });
    await client.dispose();
    expect(results.filter((r) => r.data)).toHaveLength(0);
    expect(JSON.stringify(failure ?? results)).toContain('video_not_found');
  });
});

describe('a video task\'s held charge over GraphQL', () => {
  let t: TestGateway;
  afterAll(() => t?.close());

  it('shows the hold, then the settlement, on the usage record', async () => {
    t = await startTestGateway({ config: fastVideoConfig() });
    const key = await t.createKey();
    const res = await fetch(`${t.url}/v1/videos`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gen-imagine-video', prompt: 'hold [sim gen_ms=400]', duration: 2 }) });
    const requestId = res.headers.get('x-svc-request-id')!;
    const held = (await graphqlHttp(t, key, UsageRecordDocument, { id: requestId })).data!.usageRecord!;
    expect(held.billing).toMatchObject({ state: 'held', heldMicrousd: 100_000, amountMicrousd: 100_000, settledAt: null });
    const settled = await eventually(async () => {
      const record = (await graphqlHttp(t, key, UsageRecordDocument, { id: requestId })).data!.usageRecord!;
      return record.billing.state === 'settled' ? record : undefined;
    }, 'the settlement', 8000);
    expect(settled.billing.settledAt).toEqual(expect.any(Number));
  });
});

describe('a task read over GraphQL is the task REST reads', () => {
  let t: TestGateway;
  afterAll(() => t?.close());

  it('polls a due task on read, as GET /v1/videos/{id} does, with no background poller', async () => {
    t = await startTestGateway({ config: fastVideoConfig({ first_poll_after_ms: 0 }), env: { GATEWAY_VIDEO_POLLER: 'false' } });
    const key = await t.createKey();
    const res = await fetch(`${t.url}/v1/videos`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gen-imagine-video', prompt: 'read me [sim gen_ms=50]', duration: 2 }) });
    const id = ((await res.json()) as { request_id: string }).request_id;
    // Only reads move the task: GraphQL's must reach the upstream and finish it.
    const read = await eventually(async () => {
      const task = (await graphqlHttp(t, key, TaskDocument, { id })).data!.task!;
      return task.status === 'COMPLETED' ? task : undefined;
    }, 'GraphQL reads to complete the task', 5000);
    expect(read).toMatchObject({ id, progress: 100, durationSeconds: 2 });
    const rest = (await (await fetch(`${t.url}/v1/videos/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { video?: { url: string } };
    expect(rest.video?.url).toBe(read.videoUrl);
  });
});
