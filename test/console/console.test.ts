import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { fastVideoConfig } from '../support/fast-video-config';
import { startMcpServer, weatherTools } from '../support/mcp-test-servers';
import { ADMIN_TOKEN, startTestGateway, type TestGateway } from '../support/test-gateway';
import {
  countNavigations,
  describeWithChromium,
  DESKTOP,
  expectNoHorizontalOverflow,
  launchChromium,
  openConsole,
  pasteSecret,
  PHONE,
  screenshot,
  waitForCount,
  waitForText,
  type ConsoleSession,
  type OpenOptions,
} from '../support/console-browser';

/**
 * The web console at /console in a real Chromium, against the real gateway
 * (PGlite, the simulator, video polling in milliseconds): what a user
 * pastes, clicks and sees, and what reaches the gateway. One gateway for
 * the whole file: the first test runs on it before it has any key.
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

  async function open(opts: OpenOptions = {}): Promise<Page> {
    await session?.context.close();
    session = await openConsole(browser, t.url, opts);
    return session.page;
  }

  async function api(key: string, route: string, body?: unknown): Promise<Response> {
    return fetch(`${t.url}${route}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  }

  async function admin(query: string, variables: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const body = (await (await api(ADMIN_TOKEN, '/api/admin/graphql', { query, variables })).json()) as { data: Record<string, any>; errors?: unknown };
    expect(body.errors).toBeUndefined();
    return body.data;
  }

  const chat = (key: string, model = 'gpt-4.1-mini') => api(key, '/v1/chat/completions', { model, messages: [{ role: 'user', content: 'Hello' }] });

  it('guides a first run: the operator signs in on a gateway without keys, makes the first key, sees it once, copies it and signs in with it', async () => {
    expect((await admin('{ keys { id } }')).keys).toEqual([]);
    const page = await open({ clipboard: true });

    // No key yet: the sign-in page offers both ways in.
    await page.getByRole('form', { name: 'I have an API key' }).waitFor();
    await page.getByRole('form', { name: 'I am the operator' }).waitFor();
    await screenshot(page, 'sign-in');

    // A wrong token is refused in place, and corrected in the same field.
    await pasteSecret(page, 'Admin token', 'not-the-token');
    const refusal = page.getByRole('form', { name: 'I am the operator' }).getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/code.*invalid_admin_token/s);
    expect(await page.evaluate('sessionStorage.getItem("gateway-console.admin-token")')).toBeNull();
    await pasteSecret(page, 'Admin token', ADMIN_TOKEN);

    const firstRun = page.getByRole('region', { name: 'Create the first API key' });
    await firstRun.waitFor();
    expect(page.url()).toMatch(/#\/admin$/);
    await firstRun.getByLabel('Key name', { exact: true }).fill('first key');
    await firstRun.getByRole('button', { name: 'Create key' }).click();
    const secret = (await firstRun.locator('[data-secret]').textContent())!;
    expect(secret).toMatch(/^sk-gw-/);
    expect((await api(secret, '/v1/models')).status).toBe(200);
    await firstRun.getByRole('button', { name: 'Copy' }).click();
    await firstRun.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
    await screenshot(page, 'first-key');

    await firstRun.getByRole('button', { name: 'Sign in with this key' }).click();
    await page.getByRole('heading', { level: 1, name: 'Catalog' }).waitFor();
    expect(await page.evaluate('sessionStorage.getItem("gateway-console.api-key")')).toBe(secret);

    // Shown once: back on Admin the offer is gone (the gateway has a key), and the secret is nowhere on the page.
    await page.getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('table', { name: 'Accounts' }).waitFor();
    expect(await firstRun.count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
  });

  it('checks a pasted API key before keeping it, so a wrong one is corrected in place; shows prices by the one money rule', async () => {
    const key = await t.createKey({ name: 'console-login' });
    const page = await open({ route: 'catalog' });

    // A key the gateway does not know: refused with the code and request id, not kept, and the field stays to correct it.
    await pasteSecret(page, 'API key', 'sk-gw-not-a-real-key');
    const refusal = page.getByRole('form', { name: 'I have an API key' }).getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/code.*UNAUTHENTICATED.*request id.*req_/s);
    expect(await page.evaluate('sessionStorage.getItem("gateway-console.api-key")')).toBeNull();
    expect(await page.getByRole('button', { name: 'Forget API key' }).count()).toBe(0);

    await pasteSecret(page, 'API key', key);
    await page.getByRole('heading', { level: 1, name: 'Catalog' }).waitFor();
    await page.locator('tr[data-model-id="gpt-4.1-mini"]').waitFor();
    expect(await page.locator('tr[data-model-id="claude-haiku-4-5"]').textContent()).toContain('stateless_bridge');
    expect(await page.evaluate('[sessionStorage.getItem("gateway-console.api-key"), localStorage.getItem("gateway-console.api-key")]')).toEqual([key, null]);
    // Every price: a dollar sign, thousands separated, at least two decimals.
    const prices = await page.locator('tr[data-model-id="gpt-4.1-mini"] table.compact td.number').allTextContents();
    expect(prices.length).toBeGreaterThan(0);
    for (const price of prices) expect(price).toMatch(/^\$\d{1,3}(,\d{3})*\.\d{2,} \//);
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

    // Toasts belong to their page: another page starts without them.
    await page.getByRole('link', { name: 'Files' }).click();
    await page.getByRole('heading', { level: 1, name: 'Files' }).waitFor();
    expect(await page.locator('.toast').count()).toBe(0);
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

    await row.getByRole('button', { name: 'Delete notes.txt' }).click();
    await page.getByRole('dialog', { name: 'Delete notes.txt?' }).getByRole('button', { name: 'Delete' }).click();
    await page.locator('.toasts').getByText('Deleted notes.txt.').waitFor();
    await row.waitFor({ state: 'detached' });
    expect((await fetch(`${t.url}/v1/files/${id}`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(404);
  });

  it('filters usage records by model and day, and the totals and charts follow; a search is charted under its endpoint', async () => {
    const key = await t.createKey({ name: 'console-usage' });
    for (const model of ['gpt-4.1-mini', 'gpt-4.1-mini', 'claude-haiku-4-5', 'no-such-model']) await chat(key, model);
    expect((await api(key, '/v1/search', { query: 'lighthouses', backend: 'serper' })).status).toBe(200);
    const totals = (await (await api(key, '/api/usage/totals?group_by=model')).json()) as {
      data: Array<{ model: string; requests: number; prompt_tokens: number; amount_microusd: number }>;
    };
    const mini = totals.data.find((row) => row.model === 'gpt-4.1-mini')!;
    expect(mini.requests).toBe(2);
    expect(totals.data.map((row) => row.model)).toContain('search:serper');

    const page = await open({ route: 'usage' });
    await pasteSecret(page, 'API key', key);
    const total = (field: string) => page.locator(`dd[data-total="${field}"]`);
    await waitForText(total('requests'), '5');
    // The records are a query of their own: they may show after the totals.
    await waitForCount(page, 'tr[data-record-id]', 5);
    const perModel = page.getByRole('img', { name: 'Spend per model or endpoint' });
    expect(await perModel.locator('rect').count()).toBe(4);
    const labels = await perModel.locator('text.chart-label').allTextContents();
    expect(labels).toContain('/v1/search');
    expect(labels.filter((l) => l.startsWith('search:') || l === '')).toEqual([]);
    expect(await page.getByRole('img', { name: 'Spend per day (UTC)' }).locator('rect').count()).toBe(30);
    // The README's picture of the console: `CONSOLE_DOCS_SCREENSHOT=1` renews docs/console.png.
    if (process.env.CONSOLE_DOCS_SCREENSHOT) await page.screenshot({ path: path.join(__dirname, '..', '..', 'docs', 'console.png') });

    await page.getByLabel('Model', { exact: true }).selectOption('gpt-4.1-mini');
    await waitForText(total('requests'), '2');
    expect(await total('promptTokens').textContent()).toBe(String(mini.prompt_tokens));
    expect(await total('amountMicrousd').textContent()).toBe(dollars(mini.amount_microusd));
    await waitForCount(page, 'tr[data-record-id]', 2);
    expect(await page.locator('tr[data-record-id]').allTextContents()).toEqual([expect.stringContaining('gpt-4.1-mini'), expect.stringContaining('gpt-4.1-mini')]);
    expect(await perModel.locator('rect').count()).toBe(1);

    // The day filter narrows everything to one UTC day: today has the records, yesterday none.
    const today = new Date().toISOString().slice(0, 10);
    await page.getByLabel('Day (UTC)', { exact: true }).fill(today);
    await waitForText(total('requests'), '2');
    expect(await page.getByRole('img', { name: 'Spend per day (UTC)' }).locator('rect').count()).toBe(1);
    await screenshot(page, 'usage');
    await page.getByLabel('Day (UTC)', { exact: true }).fill(new Date(Date.now() - 86_400_000).toISOString().slice(0, 10));
    await waitForText(total('requests'), '0');
    expect(await total('amountMicrousd').textContent()).toBe('$0.00');
    await page.getByText('No usage records match.').waitFor();

    // Endpoint and status filter the records where the gateway's usageRecords takes them, and are greyed out where not.
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await waitForText(total('requests'), '5');
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

  it("runs an account's day from the Admin page: each write confirmed, each refusal in the gateway's words", async () => {
    const page = await open({ route: 'admin' });
    await pasteSecret(page, 'Admin token', ADMIN_TOKEN);
    await page.getByRole('form', { name: 'Create an account' }).waitFor();
    const toasts = page.locator('.toasts');

    // An account, then its project and member; a nameless one is refused by the gateway.
    const accounts = page.getByRole('form', { name: 'Create an account' });
    await accounts.getByRole('button', { name: 'Create account' }).click();
    expect(await accounts.getByRole('alert').textContent()).toMatch(/"name".*code.*invalid_parameter/s);
    await accounts.getByLabel('New account', { exact: true }).fill('Acme Console');
    await accounts.getByRole('button', { name: 'Create account' }).click();
    await toasts.getByText('Created account Acme Console.').waitFor();
    const detail = page.getByRole('region', { name: /^Account Acme Console/ });
    await detail.waitFor();
    const accountId = (await (await admin('{ accounts { id name } }')).accounts.find((a: { name: string }) => a.name === 'Acme Console')).id as string;
    await detail.getByLabel('New project', { exact: true }).fill('search');
    await detail.getByRole('button', { name: 'Add project' }).click();
    await toasts.getByText('Added project search.').waitFor();
    await detail.getByLabel('New member', { exact: true }).fill('ada');
    await detail.getByRole('button', { name: 'Add member' }).click();
    await detail.getByText('members: ada').waitFor();
    expect(await detail.getByText('projects: search').count()).toBe(1);

    // A key in the project, its secret shown once (one that would expire in the past is refused); then its models narrowed, confirmed first.
    const newKey = detail.getByRole('form', { name: 'New key' });
    await newKey.getByLabel('Key name', { exact: true }).fill('acme-app');
    await newKey.getByLabel('Expires (optional)', { exact: true }).fill('2020-01-01T12:00');
    await newKey.getByRole('button', { name: 'Create key' }).click();
    expect(await newKey.getByRole('alert').textContent()).toMatch(/"expires_at" must be in the future.*code.*invalid_parameter/s);
    await newKey.getByLabel('Expires (optional)', { exact: true }).fill('');
    await newKey.getByLabel('Models (empty: every model)', { exact: true }).fill('gpt-4.1-mini, claude-haiku-4-5');
    await newKey.getByLabel('Project', { exact: true }).fill('search');
    await newKey.getByRole('button', { name: 'Create key' }).click();
    const key = (await detail.getByRole('region', { name: 'New key acme-app' }).locator('[data-secret]').textContent())!;
    expect(key).toMatch(/^sk-gw-/);
    const keyRow = detail.locator('tr[data-key-id]', { hasText: 'acme-app' });
    await keyRow.waitFor();
    const keyId = (await keyRow.getAttribute('data-key-id'))!;
    expect((await admin('{ keys { id projectId models } }')).keys.find((k: { id: string }) => k.id === keyId)).toMatchObject({ projectId: expect.stringMatching(/^proj_/), models: ['gpt-4.1-mini', 'claude-haiku-4-5'] });
    // Toasts sit above the page, never over a row of it.
    await expectApart(page, '.toasts', 'tr[data-key-id]');

    await detail.getByRole('button', { name: 'Edit key acme-app' }).click();
    const editKey = detail.getByRole('form', { name: 'Edit key acme-app' });
    await editKey.getByLabel('Search domains (empty: every domain)', { exact: true }).fill('bad_domain!');
    await editKey.getByRole('button', { name: 'Save…' }).click();
    const refused = page.getByRole('dialog', { name: 'Change key acme-app?' });
    await refused.getByRole('button', { name: 'Save' }).click();
    expect(await refused.getByRole('alert').textContent()).toMatch(/"allowed_domains\[0\]".*code.*invalid_parameter/s);
    await refused.getByRole('button', { name: 'Cancel' }).click();
    await editKey.getByLabel('Search domains (empty: every domain)', { exact: true }).fill('');
    await editKey.getByLabel('Models (empty: every model)', { exact: true }).fill('gpt-4.1-mini');
    await editKey.getByRole('button', { name: 'Save…' }).click();
    const change = page.getByRole('dialog', { name: 'Change key acme-app?' });
    expect(await change.textContent()).toContain('Models: gpt-4.1-mini, claude-haiku-4-5 → gpt-4.1-mini');
    await screenshot(page, 'admin-confirm');
    await change.getByRole('button', { name: 'Save' }).click();
    await toasts.getByText('Changed key acme-app.').waitFor();
    expect((await chat(key, 'claude-haiku-4-5')).status).toBe(403);

    // A top-up of a negative amount: confirmed, then refused by the gateway, whose words show in the dialog.
    await detail.getByLabel('Top-up (USD)', { exact: true }).fill('-5');
    await detail.getByRole('button', { name: 'Top up…' }).click();
    const negative = page.getByRole('dialog', { name: 'Top up Acme Console by -$5.00?' });
    await negative.getByRole('button', { name: 'Top up' }).click();
    expect(await negative.getByRole('alert').textContent()).toMatch(/"amount_microusd".*code.*invalid_parameter.*request id.*req_/s);
    await negative.getByRole('button', { name: 'Cancel' }).click();
    await negative.waitFor({ state: 'detached' });
    // Cancelled: nothing moved.
    await detail.getByLabel('Top-up (USD)', { exact: true }).fill('12.5');
    await detail.getByRole('button', { name: 'Top up…' }).click();
    await page.getByRole('dialog', { name: 'Top up Acme Console by $12.50?' }).getByRole('button', { name: 'Cancel' }).click();
    expect(await detail.locator('dd[data-wallet="balance"]').textContent()).toBe('no wallet');
    await detail.getByRole('button', { name: 'Top up…' }).click();
    const topUp = page.getByRole('dialog', { name: 'Top up Acme Console by $12.50?' });
    expect(await topUp.textContent()).toContain('from $0.00 to $12.50');
    await topUp.getByRole('button', { name: 'Top up' }).click();
    await waitForText(detail.locator('dd[data-wallet="balance"]'), '$12.50');

    await detail.getByLabel('Credit limit (USD; empty: none)', { exact: true }).fill('-1');
    await detail.getByRole('button', { name: 'Set limit…' }).click();
    const negativeLimit = page.getByRole('dialog', { name: 'Set the credit limit of Acme Console?' });
    await negativeLimit.getByRole('button', { name: 'Set limit' }).click();
    expect(await negativeLimit.getByRole('alert').textContent()).toMatch(/"credit_limit_microusd".*code.*invalid_parameter/s);
    await negativeLimit.getByRole('button', { name: 'Cancel' }).click();
    await detail.getByLabel('Credit limit (USD; empty: none)', { exact: true }).fill('1');
    await detail.getByRole('button', { name: 'Set limit…' }).click();
    await page.getByRole('dialog', { name: 'Set the credit limit of Acme Console?' }).getByRole('button', { name: 'Set limit' }).click();
    await waitForText(detail.locator('dd[data-wallet="credit-limit"]'), '$1.00');

    // Budgets: one on a key the account does not have is refused; the account's own is made, edited and removed.
    const newBudget = detail.getByRole('form', { name: 'New budget' });
    await newBudget.getByLabel('Scope', { exact: true }).selectOption('key');
    await newBudget.getByLabel('The key', { exact: true }).fill('key_not_of_this_account');
    await newBudget.getByLabel('Limit (USD)', { exact: true }).fill('2');
    await newBudget.getByRole('button', { name: 'Add budget' }).click();
    expect(await newBudget.getByRole('alert').textContent()).toMatch(/"scope_id" "key_not_of_this_account" is not a key of account.*code.*invalid_parameter/s);
    await newBudget.getByLabel('The key', { exact: true }).fill(keyId);
    await newBudget.getByLabel('Period', { exact: true }).selectOption('daily');
    await newBudget.getByRole('button', { name: 'Add budget' }).click();
    await toasts.getByText('Added a daily hard budget of $2.00 on the key.').waitFor();
    const budgetRow = detail.locator('tr[data-budget-id]', { hasText: 'acme-app' });
    await budgetRow.waitFor();
    await budgetRow.getByRole('button', { name: 'Edit the daily budget of key acme-app' }).click();
    const editBudget = detail.getByRole('form', { name: 'Edit the daily budget of key acme-app' });
    await editBudget.getByLabel('Limit (USD)', { exact: true }).fill('-3');
    await editBudget.getByRole('button', { name: 'Save' }).click();
    expect(await editBudget.getByRole('alert').textContent()).toMatch(/"limit_microusd".*code.*invalid_parameter/s);
    await editBudget.getByLabel('Limit (USD)', { exact: true }).fill('3.5');
    await editBudget.getByLabel('Mode', { exact: true }).selectOption('soft');
    await editBudget.getByRole('button', { name: 'Save' }).click();
    await waitForText(budgetRow.locator('td').nth(3), '$3.50');
    expect(await budgetRow.locator('td').nth(2).textContent()).toBe('soft');
    await budgetRow.getByRole('button', { name: 'Remove the daily budget of key acme-app' }).click();
    await page.getByRole('dialog', { name: 'Remove the daily budget of key acme-app?' }).getByRole('button', { name: 'Remove' }).click();
    await budgetRow.waitFor({ state: 'detached' });
    expect((await admin('query ($a: ID!) { accountBudgets(accountId: $a) { id } }', { a: accountId })).accountBudgets).toEqual([]);

    // A charge, refunded from its ledger row; a second refund of it is refused.
    const charged = await chat(key);
    expect(charged.status).toBe(200);
    const requestId = charged.headers.get('x-svc-request-id')!;
    // The call happened elsewhere: Refresh reads the account again.
    await detail.getByRole('button', { name: 'Refresh' }).click();
    const refundButton = detail.getByRole('button', { name: `Refund request ${requestId}` });
    await refundButton.click();
    const refund = page.getByRole('dialog', { name: `Refund request ${requestId}?` });
    await refund.getByLabel('Note', { exact: true }).fill('sorry');
    await refund.getByRole('button', { name: 'Refund' }).click();
    await toasts.getByText(new RegExp(`^Refunded \\$0\\.\\d+ of request ${requestId}\\.$`)).waitFor();
    await waitForText(detail.locator('dd[data-wallet="balance"]'), '$12.50');
    await detail.locator('tr[data-entry-id]', { hasText: 'sorry' }).waitFor();

    const refundForm = detail.getByRole('form', { name: 'Refund by request id' });
    await refundForm.getByLabel('Refund a request', { exact: true }).fill(requestId);
    await refundForm.getByRole('button', { name: 'Refund…' }).click();
    const again = page.getByRole('dialog', { name: `Refund request ${requestId}?` });
    await again.getByRole('button', { name: 'Refund' }).click();
    expect(await again.getByRole('alert').textContent()).toMatch(/has no charge left to refund.*code.*nothing_to_refund/s);
    await again.getByRole('button', { name: 'Cancel' }).click();

    // Reconcile after all of it, then the key revoked: refused at once.
    await detail.getByRole('button', { name: 'Check the books' }).click();
    await detail.locator('.reconcile[data-ok="true"]').getByText('all checks hold').waitFor();
    await detail.getByRole('button', { name: 'Revoke key acme-app' }).click();
    const revoke = page.getByRole('dialog', { name: 'Revoke key acme-app?' });
    expect(await revoke.textContent()).toContain('cannot be restored');
    await revoke.getByRole('button', { name: 'Revoke' }).click();
    await keyRow.locator('.badge', { hasText: 'revoked' }).waitFor();
    expect((await chat(key)).status).toBe(401);
    await screenshot(page, 'admin');
  });

  it('runs the MCP servers from the MCP page (health, add, edit, disable and remove confirmed) and sets a key\'s MCP tools in the key editor', async () => {
    const weather = await startMcpServer('weather', weatherTools);
    try {
      const page = await open({ route: 'mcp' });
      await pasteSecret(page, 'Admin token', ADMIN_TOKEN);
      const toasts = page.locator('.toasts');
      const add = page.getByRole('form', { name: 'Add an MCP server' });
      await add.waitFor();
      await page.getByText('No MCP servers yet.').waitFor();

      // A bad address is refused in the gateway's words; a loopback server is added as private, with a price.
      await add.getByLabel('Server name', { exact: true }).fill('weather');
      await add.getByLabel('URL', { exact: true }).fill('not a url');
      await add.getByRole('button', { name: 'Add server' }).click();
      expect(await add.getByRole('alert').textContent()).toMatch(/"url".*code.*invalid_parameter/s);
      await add.getByLabel('URL', { exact: true }).fill(weather.url);
      await add.getByLabel('Price per call (USD)', { exact: true }).fill('0.002');
      await add.getByLabel('On a private network').check();
      await add.getByRole('button', { name: 'Add server' }).click();
      await toasts.getByText('Added MCP server weather.').waitFor();
      const row = page.locator('tr[data-server="weather"]');
      await waitForText(row.locator('td[data-health]'), 'not called yet');
      expect(await row.textContent()).toContain('$0.002');

      // Another on loopback, not declared private: taken, and refused at use by the SSRF rule, which its health shows.
      await add.getByLabel('Server name', { exact: true }).fill('sneaky');
      await add.getByLabel('URL', { exact: true }).fill(weather.url);
      await add.getByRole('button', { name: 'Add server' }).click();
      await toasts.getByText('Added MCP server sneaky.').waitFor();

      const key = await t.createKey({ name: 'console-mcp' });
      const client = new Client({ name: 'console-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['weather__alerts', 'weather__forecast']);
      await client.close();
      await page.getByRole('button', { name: 'Refresh health' }).click();
      await waitForText(row.locator('td[data-health] .badge'), 'answering');
      const sneaky = page.locator('tr[data-server="sneaky"]');
      await waitForText(sneaky.locator('td[data-health] .badge'), 'failing');
      expect(await sneaky.locator('td[data-health]').textContent()).toMatch(/declare it private/);
      await screenshot(page, 'mcp-servers');

      // Edited in place; disabled only once confirmed, enabled again without a question; removed once confirmed.
      await row.getByRole('button', { name: 'Edit MCP server weather' }).click();
      const edit = page.getByRole('form', { name: 'Edit MCP server weather' });
      await edit.getByLabel('Price per call (USD)', { exact: true }).fill('0.005');
      await edit.getByRole('button', { name: 'Save' }).click();
      await toasts.getByText('Changed MCP server weather.').waitFor();
      await waitForText(row.locator('td').nth(3), '$0.005');
      await row.getByRole('button', { name: 'Disable MCP server weather' }).click();
      const disable = page.getByRole('dialog', { name: 'Disable MCP server weather?' });
      expect(await disable.textContent()).toContain('weather__*');
      await disable.getByRole('button', { name: 'Disable' }).click();
      await waitForText(row.locator('.badge').first(), 'disabled');
      expect((await admin('{ mcpServers { name enabled } }')).mcpServers).toContainEqual({ name: 'weather', enabled: false });
      await row.getByRole('button', { name: 'Enable MCP server weather' }).click();
      await waitForText(row.locator('.badge').first(), 'enabled');
      await sneaky.getByRole('button', { name: 'Remove MCP server sneaky' }).click();
      await page.getByRole('dialog', { name: 'Remove MCP server sneaky?' }).getByRole('button', { name: 'Remove' }).click();
      await sneaky.waitFor({ state: 'detached' });
      expect((await admin('{ mcpServers { name } }')).mcpServers).toEqual([{ name: 'weather' }]);

      // The key's MCP tools, narrowed in the key editor and confirmed first.
      const keyId = ((await admin('{ keys { id name accountId } }')).keys as Array<{ id: string; name: string; accountId: string }>).find((k) => k.name === 'console-mcp')!;
      const accountName = ((await admin('{ accounts { id name } }')).accounts as Array<{ id: string; name: string }>).find((a) => a.id === keyId.accountId)!.name;
      await page.getByRole('link', { name: 'Admin' }).click();
      await page.getByRole('button', { name: `Show account ${accountName}` }).click();
      await page.getByRole('button', { name: 'Edit key console-mcp' }).click();
      const editKey = page.getByRole('form', { name: 'Edit key console-mcp' });
      await editKey.getByLabel('Every MCP tool').uncheck();
      await editKey.getByLabel('MCP tools (weather__*, search__query; empty: none)', { exact: true }).fill('weather__forecast');
      await editKey.getByRole('button', { name: 'Save…' }).click();
      const change = page.getByRole('dialog', { name: 'Change key console-mcp?' });
      expect(await change.textContent()).toContain('MCP tools: every tool → weather__forecast');
      await change.getByRole('button', { name: 'Save' }).click();
      await toasts.getByText('Changed key console-mcp.').waitFor();
      await waitForText(page.locator(`tr[data-key-id="${keyId.id}"] td`).nth(4), 'weather__forecast');
      expect((await admin('{ keys { id mcpTools } }')).keys).toContainEqual({ id: keyId.id, mcpTools: ['weather__forecast'] });
    } finally {
      await weather.close();
      await admin('mutation { removeMcpServer(name: "weather") { deleted } }').catch(() => undefined);
    }
  });

  it('mints a temporary credential with the key, shows its secret once, refuses one wider than the key, and revokes it', async () => {
    const key = await t.createKey({ name: 'console-credentials', models: ['gpt-4.1-mini'] });
    const page = await open({ route: 'credentials' });
    await pasteSecret(page, 'API key', key);
    const form = page.getByRole('form', { name: 'New credential' });

    await form.getByLabel('Models (empty: the key\'s)', { exact: true }).fill('claude-haiku-4-5');
    await form.getByRole('button', { name: 'Mint credential' }).click();
    expect(await form.getByRole('alert').textContent()).toMatch(/"models" names claude-haiku-4-5, which the key itself may not use.*code.*invalid_parameter/s);

    await form.getByLabel('Name', { exact: true }).fill('browser');
    await form.getByLabel('Models (empty: the key\'s)', { exact: true }).fill('gpt-4.1-mini');
    await form.getByLabel('Budget (USD, optional)', { exact: true }).fill('0.5');
    await form.getByRole('button', { name: 'Mint credential' }).click();
    const credential = (await page.getByRole('region', { name: 'New credential browser' }).locator('[data-secret]').textContent())!;
    expect((await chat(credential)).status).toBe(200);
    const row = page.locator('tr[data-credential-id]', { hasText: 'browser' });
    await row.locator('.badge', { hasText: 'active' }).waitFor();
    await screenshot(page, 'credentials');

    await row.getByRole('button', { name: 'Revoke credential browser' }).click();
    await page.getByRole('dialog', { name: 'Revoke credential browser?' }).getByRole('button', { name: 'Revoke' }).click();
    await row.locator('.badge', { hasText: 'revoked' }).waitFor();
    expect((await chat(credential)).status).toBe(401);
    expect((await chat(key)).status).toBe(200);
  });

  it('fits a phone: no page runs off a 390 px screen, and a failed task\'s message stays clear of the toasts', async () => {
    const key = await t.createKey({ name: 'console-widths' });
    await chat(key);
    for (const [name, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
      const page = await open({ viewport });
      await page.getByRole('form', { name: 'I am the operator' }).waitFor();
      if (name === 'phone') await expectNoHorizontalOverflow(page, 'sign-in');
      await screenshot(page, `${name}-sign-in`);
      await pasteSecret(page, 'API key', key);
      for (const [route, shown] of Object.entries(LOADED)) {
        await page.goto(`${t.url}/console#/${route}`);
        await page.locator(shown).first().waitFor();
        if (name === 'phone') await expectNoHorizontalOverflow(page, route);
        await screenshot(page, `${name}-${route}`);
      }
      await page.goto(`${t.url}/console#/admin`);
      await pasteSecret(page, 'Admin token', ADMIN_TOKEN);
      await page.getByRole('button', { name: 'Show account Acme Console' }).click();
      await page.getByRole('region', { name: /^Account Acme Console/ }).getByRole('table', { name: 'Ledger entries' }).waitFor();
      if (name === 'phone') await expectNoHorizontalOverflow(page, 'admin');
      await screenshot(page, `${name}-admin`);
    }

    // A task that fails while a toast is up: its message is on the page, not under the toast.
    const page = await open({ viewport: PHONE, route: 'tasks' });
    await pasteSecret(page, 'API key', key);
    await page.getByRole('status', { name: 'Live updates: live' }).waitFor();
    await page.getByLabel('Model', { exact: true }).selectOption('gen-imagine-video');
    await page.getByLabel('Prompt', { exact: true }).fill('A storm that never renders [sim fail gen_ms=300]');
    await page.getByRole('button', { name: 'Submit task' }).click();
    const failed = page.locator('tr[data-task-id]').first().locator('.task-error');
    await failed.waitFor();
    await page.locator('.toast').first().waitFor();
    await expectApart(page, '.toasts', '.task-error');
    await expectNoHorizontalOverflow(page, 'tasks with a failed task');
    await screenshot(page, 'phone-failed-task');
  });

  /** The filter arguments the gateway's usageRecords takes, by introspection. */
  async function usageRecordsArgs(key: string): Promise<string[]> {
    const res = await api(key, '/graphql', { query: '{ __type(name: "Query") { fields { name args { name } } } }' });
    const body = (await res.json()) as { data: { __type: { fields: Array<{ name: string; args: Array<{ name: string }> }> } } };
    return body.data.__type.fields.find((f) => f.name === 'usageRecords')!.args.map((a) => a.name);
  }
});

/** What each key page shows once its data is in (the width is measured then). */
const LOADED: Record<string, string> = {
  tasks: 'text=No video tasks yet',
  usage: 'tr[data-record-id]',
  files: 'text=No files. Upload one above.',
  credentials: 'text=No credentials. Mint one above.',
  catalog: 'tr[data-model-id]',
};

/** An amount as the console writes money: at least two decimals, the rest as far as it has them (micro-USD: at most six). */
function dollars(microusd: number): string {
  const whole = Math.floor(microusd / 1_000_000);
  const fraction = String(microusd % 1_000_000).padStart(6, '0').replace(/0+$/, '').padEnd(2, '0');
  return `$${whole}.${fraction}`;
}

/** Fails when an element of `over` overlaps one of `under` on the screen. */
async function expectApart(page: Page, over: string, under: string): Promise<void> {
  const boxes = async (selector: string) => (await Promise.all((await page.locator(selector).all()).map((l) => l.boundingBox()))).filter((b) => b !== null && b.height > 0);
  const [a, b] = await Promise.all([boxes(over), boxes(under)]);
  expect(b.length).toBeGreaterThan(0);
  for (const x of a) {
    for (const y of b) {
      const overlap = x!.x < y!.x + y!.width && y!.x < x!.x + x!.width && x!.y < y!.y + y!.height && y!.y < x!.y + x!.height;
      expect({ over, under, overlap }).toEqual({ over, under, overlap: false });
    }
  }
}
