import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { eventually } from '../support/eventually';
import { fastVideoConfig } from '../support/fast-video-config';
import { ADMIN_TOKEN, startTestGateway, type TestGateway } from '../support/test-gateway';
import { describeWithChromium, launchChromium, openConsole, pasteSecret, screenshot, type ConsoleSession } from '../support/console-browser';

/**
 * The web console at /console in a real Chromium, against the real gateway
 * (PGlite, the simulator, video polling in milliseconds): what a user
 * pastes, clicks and sees, and what reaches the gateway.
 */
describeWithChromium()('the web console in a browser', () => {
  let t: TestGateway;
  let browser: Browser;
  let session: ConsoleSession | undefined;

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestGateway({ database: 'pglite', config: fastVideoConfig() }), launchChromium()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
  afterEach(async () => {
    // Every page script error (an exception, a CSP violation) fails the test that caused it.
    const errors = session?.pageErrors ?? [];
    await session?.context.close();
    session = undefined;
    expect(errors).toEqual([]);
  });

  async function open(opts: { notifications?: boolean; route?: string } = {}): Promise<Page> {
    session = await openConsole(browser, t.url, opts);
    return session.page;
  }

  async function api(key: string, route: string, body: unknown): Promise<Response> {
    return fetch(`${t.url}${route}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  }

  it('takes a pasted API key, keeps it in the tab only, shows the gateway\'s errors, and forgets the key', async () => {
    const key = await t.createKey({ name: 'console-login' });
    const page = await open({ route: 'catalog' });

    // A key the gateway does not know: the page shows its refusal with the code and request id.
    await pasteSecret(page, 'API key', 'sk-gw-not-a-real-key');
    const refusal = page.getByRole('alert').first();
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/code.*UNAUTHENTICATED.*request id.*req_/s);
    await page.getByRole('button', { name: 'Forget API key' }).click();

    await pasteSecret(page, 'API key', key);
    await page.getByRole('heading', { level: 1, name: 'Catalog' }).waitFor();
    await page.locator('tr[data-model-id="gpt-4.1-mini"]').waitFor();
    expect(await page.locator('tr[data-model-id="claude-haiku-4-5"]').textContent()).toContain('stateless_bridge');
    expect(await page.evaluate('[sessionStorage.getItem("gateway-console.api-key"), localStorage.getItem("gateway-console.api-key")]')).toEqual([key, null]);
    await screenshot(page, 'catalog');

    await page.getByRole('button', { name: 'Forget API key' }).click();
    await page.getByLabel('API key', { exact: true }).waitFor();
    expect(await page.evaluate('sessionStorage.getItem("gateway-console.api-key")')).toBeNull();
  });

  it('shows a video task go to completed live over the subscription, with a notification and a toast', async () => {
    const key = await t.createKey({ name: 'console-tasks' });
    const page = await open({ notifications: true, route: 'tasks' });
    const frames: string[] = [];
    page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => void frames.push(String(payload))));

    await pasteSecret(page, 'API key', key);
    await page.getByText('Notifications are on').waitFor();
    await page.getByRole('status', { name: 'Live updates: live' }).waitFor();
    await page.getByLabel('Model', { exact: true }).selectOption('gen-imagine-video');
    await page.getByLabel('Prompt', { exact: true }).fill('A lighthouse at dusk [sim gen_ms=1200]');
    const navigations = countNavigations(page);
    await page.getByRole('button', { name: 'Submit task' }).click();

    const row = page.locator('tr[data-task-id]').first();
    await row.waitFor();
    const id = (await row.getAttribute('data-task-id'))!;
    expect(await row.locator('.badge').textContent()).toMatch(/^(queued|in progress)$/);
    await row.locator('.badge', { hasText: 'completed' }).waitFor();
    expect(await row.getByRole('link', { name: 'Open video' }).getAttribute('href')).toMatch(/^https:\/\/.+\.mp4$/);

    // It came over graphql-ws, without a reload.
    expect(frames.some((f) => f.includes(id) && f.includes('COMPLETED'))).toBe(true);
    expect(navigations()).toBe(0);
    await page.locator('.toasts').getByText(`Video task ${id} completed (gen-imagine-video).`).waitFor();
    expect(await page.evaluate('window.__notifications')).toEqual([{ title: 'Video task completed', body: 'gen-imagine-video: A lighthouse at dusk [sim gen_ms=1200]', silent: true }]);
    await screenshot(page, 'tasks');
  });

  it('uploads a file with a progress bar to 100 %, downloads it and deletes it', async () => {
    const key = await t.createKey({ name: 'console-files' });
    const page = await open({ route: 'files' });
    await pasteSecret(page, 'API key', key);
    await page.getByText('No files. Upload one above.').waitFor();

    const bytes = Buffer.alloc(3 * 1024 * 1024, 'The quick brown fox jumps over the lazy dog.\n');
    await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: bytes });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    // <progress>'s value property reflects its attribute.
    await waitForText(page.getByRole('progressbar', { name: 'Upload progress' }), '100', 'value');
    expect(await page.locator('.progress-text').textContent()).toBe('100 %');
    await page.locator('.toasts').getByText('Uploaded notes.txt (3.0 MB).').waitFor();

    const row = page.locator('tr[data-file-id]', { hasText: 'notes.txt' });
    await row.waitFor();
    const id = (await row.getAttribute('data-file-id'))!;
    await screenshot(page, 'files');

    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Download notes.txt' }).click()]);
    expect(download.suggestedFilename()).toBe('notes.txt');
    expect(readFileSync((await download.path())!).equals(bytes)).toBe(true);

    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByRole('button', { name: 'Confirm' }).click();
    await page.locator('.toasts').getByText('Deleted notes.txt.').waitFor();
    await row.waitFor({ state: 'detached' });
    expect((await fetch(`${t.url}/v1/files/${id}`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(404);
  });

  it('filters usage records by model and day, and the totals and charts follow', async () => {
    const key = await t.createKey({ name: 'console-usage' });
    const chat = (model: string) => api(key, '/v1/chat/completions', { model, messages: [{ role: 'user', content: 'Hello' }] });
    for (const model of ['gpt-4.1-mini', 'gpt-4.1-mini', 'claude-haiku-4-5', 'no-such-model']) await chat(model);
    const totals = (await (await fetch(`${t.url}/api/usage/totals?group_by=model`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
      data: Array<{ model: string; requests: number; prompt_tokens: number; amount_microusd: number }>;
    };
    const mini = totals.data.find((row) => row.model === 'gpt-4.1-mini')!;
    expect(mini.requests).toBe(2);

    const page = await open({ route: 'usage' });
    await pasteSecret(page, 'API key', key);
    const total = (field: string) => page.locator(`dd[data-total="${field}"]`);
    await waitForText(total('requests'), '4');
    // The records are a query of their own: they may show after the totals.
    await waitForCount(page, 'tr[data-record-id]', 4);
    expect(await page.getByRole('img', { name: 'Spend per model' }).locator('rect').count()).toBe(3);
    expect(await page.getByRole('img', { name: 'Spend per day (UTC)' }).locator('rect').count()).toBe(30);
    // The README's picture of the console: `CONSOLE_DOCS_SCREENSHOT=1` renews docs/console.png.
    if (process.env.CONSOLE_DOCS_SCREENSHOT) await page.screenshot({ path: path.join(__dirname, '..', '..', 'docs', 'console.png') });

    await page.getByLabel('Model', { exact: true }).selectOption('gpt-4.1-mini');
    await waitForText(total('requests'), '2');
    expect(await total('promptTokens').textContent()).toBe(String(mini.prompt_tokens));
    expect(await total('amountMicrousd').textContent()).toBe(`$${(mini.amount_microusd / 1e6).toFixed(6).replace(/0+$/, '')}`);
    await waitForCount(page, 'tr[data-record-id]', 2);
    expect(await page.locator('tr[data-record-id]').allTextContents()).toEqual([expect.stringContaining('gpt-4.1-mini'), expect.stringContaining('gpt-4.1-mini')]);
    expect(await page.getByRole('img', { name: 'Spend per model' }).locator('rect').count()).toBe(1);

    // The day filter narrows everything to one UTC day: today has the records, yesterday none.
    const today = new Date().toISOString().slice(0, 10);
    await page.getByLabel('Day (UTC)', { exact: true }).fill(today);
    await waitForText(total('requests'), '2');
    expect(await page.getByRole('img', { name: 'Spend per day (UTC)' }).locator('rect').count()).toBe(1);
    await screenshot(page, 'usage');
    await page.getByLabel('Day (UTC)', { exact: true }).fill(new Date(Date.now() - 86_400_000).toISOString().slice(0, 10));
    await waitForText(total('requests'), '0');
    await page.getByText('No usage records match.').waitFor();

    // Endpoint and status filter the records where the gateway's usageRecords takes them, and are greyed out where not.
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await waitForText(total('requests'), '4');
    const takes = await usageRecordsArgs(key);
    expect(await page.getByLabel('Endpoint', { exact: true }).isDisabled()).toBe(!takes.includes('endpoint'));
    expect(await page.getByLabel('Status', { exact: true }).isDisabled()).toBe(!takes.includes('status'));
    if (takes.includes('status')) {
      await page.getByLabel('Status', { exact: true }).selectOption('failed');
      await waitForText(total('requests'), '1');
      await waitForCount(page, 'tr[data-record-id]', 1);
      expect(await page.locator('tr[data-record-id]').textContent()).toContain('no-such-model');
    } else {
      await page.getByText('does not filter by').waitFor();
    }
  });

  it('lists the accounts with the admin token, and an account\'s keys, wallet, budgets and ledger', async () => {
    const admin = async (query: string, variables: Record<string, unknown>) => {
      const res = await api(ADMIN_TOKEN, '/api/admin/graphql', { query, variables });
      const body = (await res.json()) as { data: Record<string, any>; errors?: unknown };
      expect(body.errors).toBeUndefined();
      return body.data;
    };
    const { createAccount } = await admin('mutation ($name: String!) { createAccount(name: $name) { id } }', { name: 'Acme Console' });
    const accountId = createAccount.id as string;
    await admin('mutation ($input: CreateKeyInput!) { createKey(input: $input) { id } }', { input: { name: 'console-admin-key', accountId } });
    await admin('mutation ($id: ID!) { topUpWallet(accountId: $id, amountMicrousd: 5000000, note: "welcome credit") { entryId } }', { id: accountId });
    await admin('mutation ($id: ID!, $input: CreateBudgetInput!) { createBudget(accountId: $id, input: $input) { id } }', {
      id: accountId,
      input: { scope: 'account', period: 'monthly', limitMicrousd: 2_000_000 },
    });

    const page = await open({ route: 'admin' });
    await pasteSecret(page, 'Admin token', ADMIN_TOKEN);
    await page.locator(`tr[data-account-id="${accountId}"]`, { hasText: 'Acme Console' }).waitFor();
    await page.locator('tr[data-account-id="acct_default"]').waitFor();
    await page.getByRole('button', { name: 'Show account Acme Console' }).click();

    const detail = page.locator('section.card', { has: page.getByRole('heading', { name: /Account Acme Console/ }) });
    await detail.getByRole('table', { name: 'Keys' }).getByText('console-admin-key').waitFor();
    await detail.getByRole('table', { name: 'Budgets' }).getByText('monthly').waitFor();
    await detail.getByRole('table', { name: 'Ledger entries' }).getByText('welcome credit').waitFor();
    expect(await detail.locator('.totals').textContent()).toContain('$5.00');
    await screenshot(page, 'admin');
  });

  /** The filter arguments the gateway's usageRecords takes, by introspection. */
  async function usageRecordsArgs(key: string): Promise<string[]> {
    const res = await api(key, '/graphql', { query: '{ __type(name: "Query") { fields { name args { name } } } }' });
    const body = (await res.json()) as { data: { __type: { fields: Array<{ name: string; args: Array<{ name: string }> }> } } };
    return body.data.__type.fields.find((f) => f.name === 'usageRecords')!.args.map((a) => a.name);
  }
});

/** Waits until the element's whole text (or the attribute named) is `text`. */
async function waitForText(locator: Locator, text: string, attribute?: string): Promise<void> {
  let seen: string | null = null;
  await eventually(
    async () => {
      seen = attribute ? await locator.getAttribute(attribute) : await locator.textContent();
      return seen === text || undefined;
    },
    () => `"${text}"${attribute ? ` in ${attribute}` : ''}; the page shows "${seen}"`,
    10_000,
    50,
  );
}

/** Waits until `selector` matches exactly `count` elements. (The console's CSP forbids waitForFunction's string predicates, rightly.) */
async function waitForCount(page: Page, selector: string, count: number): Promise<void> {
  let seen = -1;
  await eventually(async () => ((seen = await page.locator(selector).count()) === count ? true : undefined), () => `${count} of ${selector}; the page has ${seen}`, 10_000, 50);
}

/** Counts the main frame's navigations from now on (a reload would be one). */
function countNavigations(page: Page): () => number {
  let count = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) count++;
  });
  return () => count;
}
