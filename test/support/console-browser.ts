import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { eventually } from './eventually';

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

/** The widths the console is checked at: a phone's and a desktop's. */
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 860 };

export interface OpenOptions {
  notifications?: boolean;
  /** The clipboard may be written and read (a copy button's test). */
  clipboard?: boolean;
  route?: string;
  viewport?: { width: number; height: number };
}

/** A fresh browser context (its own storage) on the console, notifications recorded and, when asked, permitted. */
export async function openConsole(browser: Browser, gatewayUrl: string, opts: OpenOptions = {}): Promise<ConsoleSession> {
  const context = await browser.newContext({ viewport: opts.viewport ?? DESKTOP, acceptDownloads: true });
  if (opts.notifications) await context.grantPermissions(['notifications'], { origin: gatewayUrl });
  if (opts.clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gatewayUrl });
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

/** Pastes a secret into the console's form that asks for it (the API key, or the admin token) and submits it. */
export async function pasteSecret(page: Page, label: 'API key' | 'Admin token', secret: string): Promise<void> {
  const form = page.locator('form', { has: page.getByLabel(label, { exact: true }) });
  await form.getByLabel(label, { exact: true }).fill(secret);
  await form.getByRole('button', { name: /^Use this / }).click();
}

/** Fails when the page is wider than the window (something runs off the screen); names the widest elements. */
export async function expectNoHorizontalOverflow(page: Page, where: string): Promise<void> {
  // A string, because the gateway's tsconfig has no DOM types.
  const overflow = (await page.evaluate(`(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return null;
    const wide = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 0.5 && !el.closest('.table-wrap') && !el.closest('.visually-hidden'))
      .slice(0, 5)
      .map((el) => el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ').join('.') : '') + ' ' + Math.round(el.getBoundingClientRect().right) + 'px');
    return { scrollWidth: document.documentElement.scrollWidth, width, wide };
  })()`)) as null | { scrollWidth: number; width: number; wide: string[] };
  if (overflow) throw new Error(`${where}: the page is ${overflow.scrollWidth} px wide in a ${overflow.width} px window; past the edge: ${overflow.wide.join(', ')}`);
}

/** Waits until the element's whole text (or the attribute named) is `text`. */
export async function waitForText(locator: Locator, text: string, attribute?: string): Promise<void> {
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
export async function waitForCount(page: Page, selector: string, count: number): Promise<void> {
  let seen = -1;
  await eventually(async () => ((seen = await page.locator(selector).count()) === count ? true : undefined), () => `${count} of ${selector}; the page has ${seen}`, 10_000, 50);
}

/** Counts the main frame's navigations from now on (a reload would be one). */
export function countNavigations(page: Page): () => number {
  let count = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) count++;
  });
  return () => count;
}

/** Saves a screenshot of the whole page under test-output/console/. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}
