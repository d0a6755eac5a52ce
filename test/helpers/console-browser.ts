import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { repositoryRoot } from './built-gateway.js';

/** Debian's Chromium; CI installs it (`.ci/run`). Playwright's own browser builds are never used. */
export const chromiumPath = '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

export const screenshotDirectory = path.join(repositoryRoot, 'test-artifacts', 'screenshots');

/** Fails loudly when Chromium is missing: a skipped browser test would hide a broken console. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath))
    throw new Error(`${chromiumPath} is missing: apt-get install -y chromium (.ci/run does this in CI)`);
  return chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS, headless: true });
}

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 375, height: 740 } as const;

/** A fresh browser profile (its own cookies) on the gateway, English unless told otherwise. */
export async function openContext(
  browser: Browser,
  options: { origin: string; viewport?: { width: number; height: number }; locale?: string },
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: options.origin,
    viewport: options.viewport ?? DESKTOP,
    locale: options.locale ?? 'en-US',
    // Only the gateway on 127.0.0.1: nothing else is reachable from the tests.
    serviceWorkers: 'block',
  });
  // Shorter than the test's timeout, so a missing element fails with its locator in the message.
  context.setDefaultTimeout(8_000);
  return context;
}

/** A full-page screenshot under test-artifacts/screenshots/ (git-ignored), for people to look at. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDirectory, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDirectory, `${name}.png`), fullPage: true });
}

/** Signs in on the "Root admin" tab with the admin token. */
export async function signInWithToken(page: Page, token: string): Promise<void> {
  await page.goto('/');
  await page.getByRole('tab', { name: 'Root admin' }).click();
  await page.getByLabel('Admin token', { exact: true }).fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await signedIn(page);
}

/** Signs in on the "Account" tab with a username and password. */
export async function signInWithPassword(
  page: Page,
  credentials: { username: string; password: string },
): Promise<void> {
  await page.goto('/');
  await page.getByRole('tab', { name: 'Account' }).click();
  await page.getByLabel('Username', { exact: true }).fill(credentials.username);
  await page.getByLabel('Password', { exact: true }).fill(credentials.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await signedIn(page);
}

/** Waits for the signed-in frame; a refused sign-in fails with the alert the page shows. */
async function signedIn(page: Page): Promise<void> {
  const signOut = page.getByRole('button', { name: 'Sign out' });
  const alert = page.getByRole('alert');
  await signOut.or(alert).first().waitFor();
  if (!(await signOut.isVisible())) throw new Error(`sign-in refused: ${await alert.first().textContent()}`);
}

/** The page has exactly one h1, and it is this one (the console's accessibility promise). */
export async function expectOneHeading(page: Page, name: string): Promise<void> {
  await expect
    .poll(() => page.getByRole('heading', { level: 1 }).allTextContents(), { timeout: 8_000 })
    .toEqual([name]);
}

/** Follows the navigation's link to a page and waits for that page's one heading. */
export async function openPage(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name, exact: true }).click();
  await expectOneHeading(page, name);
}
