import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * A real browser for the console's tests: the system's Chromium through
 * playwright-core, which never downloads one. Without Chromium the browser
 * tests are skipped, loudly.
 */

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where each browser test leaves its screenshot (gitignored). */
export const SCREENSHOT_DIR = path.join(__dirname, '..', '..', 'test-output', 'console');

/** `describe` when Chromium is installed; otherwise `describe.skip`, after a warning nobody can miss. */
export function describeWithChromium(): jest.Describe {
  if (existsSync(CHROMIUM_PATH)) return describe;
  const bar = '!'.repeat(78);
  console.warn(
    `\n${bar}\n  CONSOLE BROWSER TESTS SKIPPED: no Chromium at ${CHROMIUM_PATH}.\n` +
      `  Install it (Debian/Ubuntu, as root): apt-get update && apt-get install -y chromium\n` +
      `  or point CHROMIUM_PATH at a Chromium or Chrome binary.\n${bar}\n`,
  );
  return describe.skip;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
}

/**
 * Wraps `window.Notification` before any page script runs, so a test can
 * read the notifications the page showed (`window.__notifications`); the
 * real constructor still runs. A string, because the gateway's tsconfig
 * has no DOM types.
 */
const RECORD_NOTIFICATIONS = `(() => {
  const Original = window.Notification;
  if (!Original) return;
  window.__notifications = [];
  function Recorded(title, options) {
    window.__notifications.push({ title, body: options && options.body, silent: options && options.silent });
    return new Original(title, options);
  }
  Object.defineProperty(Recorded, 'permission', { get: () => Original.permission });
  Recorded.requestPermission = (...args) => Original.requestPermission(...args);
  window.Notification = Recorded;
})();`;

export interface ConsoleSession {
  context: BrowserContext;
  page: Page;
  /** Errors the page logged (uncaught exceptions, CSP violations), leaving out failed requests the test caused on purpose. */
  pageErrors: string[];
}

/** A fresh browser context (its own storage) on the console, notifications recorded and, when asked, permitted. */
export async function openConsole(browser: Browser, gatewayUrl: string, opts: { notifications?: boolean; route?: string } = {}): Promise<ConsoleSession> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, acceptDownloads: true });
  if (opts.notifications) await context.grantPermissions(['notifications'], { origin: gatewayUrl });
  await context.addInitScript({ content: RECORD_NOTIFICATIONS });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) pageErrors.push(msg.text());
  });
  await page.goto(`${gatewayUrl}/console${opts.route ? `#/${opts.route}` : ''}`);
  return { context, page, pageErrors };
}

/** Pastes a secret into the console's form (the API key, or on the Admin page the admin token). */
export async function pasteSecret(page: Page, label: 'API key' | 'Admin token', secret: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).fill(secret);
  await page.getByRole('button', { name: /^Use this / }).click();
}

/** Saves a screenshot of the whole page under test-output/console/. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}
