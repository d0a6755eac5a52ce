import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import {
  adminCall,
  ensureGatewayBuilt,
  startBuiltGateway,
  stopBuiltGateway,
  type BuiltGateway,
} from '../helpers/built-gateway.js';
import {
  PHONE,
  expectOneHeading,
  launchChromium,
  openContext,
  saveScreenshot,
  signInWithPassword,
  signInWithToken,
} from '../helpers/console-browser.js';
import { allStarted } from '../helpers/all-started.js';

// A whole browser session per test: about 10 s alone, and more with the rest of the suite on both cores.
vi.setConfig({ testTimeout: 60_000 });

// The Chinese interface, the 375 px phone layout, and a screenshot of every main page (desktop and
// phone) in test-artifacts/screenshots/. The set-up is done through the management API here; the
// console's own forms are driven in console-setup-flow.test.ts.

const ADMIN_TOKEN = 'browser-admin-token';
const UPSTREAM_KEY = 'sk-fake-upstream';
const MODEL = 'gpt-4o-mini';
const ALICE = { username: 'alice', password: 'alice-password-1' };
/** Alice's language changes in the Chinese test; Bob stays in English. */
const BOB = { username: 'bob', password: 'bob-password-1' };
const ADMIN_PAGES = [
  'Dashboard',
  'Channels',
  'Models',
  'Virtual models',
  'Guardrails',
  'Users',
  'Keys',
  'Groups',
  'Settings',
  'Logs',
];
const USER_PAGES = ['Dashboard', 'Keys', 'Logs', 'Quick start'];

let dataDir: string;
let gateway: BuiltGateway;
let upstream: FakeUpstream;
let browser: Browser;

beforeAll(async () => {
  await ensureGatewayBuilt();
  dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-browser-'));
  await allStarted([
    startFakeOpenAI({ apiKey: UPSTREAM_KEY }).then((started) => (upstream = started)),
    startBuiltGateway({ GATEWAY_DATA_DIR: dataDir, GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN }).then(
      (started) => (gateway = started),
    ),
    launchChromium().then((started) => (browser = started)),
  ]);
  const call = (method: string, route: string, body?: unknown) =>
    adminCall(gateway.origin, ADMIN_TOKEN, method, route, body);
  await call('POST', '/channels', {
    name: 'fake-openai',
    type: 'openai',
    base_url: upstream.origin,
    keys: [UPSTREAM_KEY],
    models: [MODEL, 'gpt-4o'],
  });
  await call('PUT', `/prices/${MODEL}`, { input: 0.15, output: 0.6 });
  const alice = await call('POST', '/users', { ...ALICE, balance: 5 });
  const bob = await call('POST', '/users', { ...BOB, balance: 5, language: 'en' });
  await call('POST', '/keys', { user_id: bob.id, name: 'bob-phone' });
  const key = await call('POST', '/keys', { user_id: alice.id, name: 'alice-laptop' });
  const client = new OpenAI({ apiKey: key.key, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
  await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (gateway) await stopBuiltGateway(gateway);
  await upstream?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Waits until the page shows its one h1 and its data (no loading text left). */
async function settle(page: Page, heading: string): Promise<void> {
  await expectOneHeading(page, heading);
  await page
    .getByText(/^(Loading…|加载中…)$/)
    .first()
    .waitFor({ state: 'detached' });
}

/** How far the page scrolls sideways (evaluated in the page, which has a DOM; this file does not). */
const horizontalOverflow = (page: Page) =>
  page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');

const slug = (name: string) => name.toLowerCase().replace(/\s+/g, '-');

test('the Chinese interface: sign-in, navigation, and the choice saved to the account', async () => {
  const context = await openContext(browser, { origin: gateway.origin });
  const page = await context.newPage();
  await page.goto('/');
  await page.getByRole('button', { name: '简体中文' }).click();
  await settle(page, '登录');
  await page.getByRole('tab', { name: '账户' }).click();
  await page.getByLabel('用户名', { exact: true }).fill(ALICE.username);
  await page.getByLabel('密码', { exact: true }).fill(ALICE.password);
  await saveScreenshot(page, 'desktop-zh-sign-in');
  await page.getByRole('button', { name: '登录' }).click();
  await page.getByRole('button', { name: '退出登录' }).waitFor();
  await settle(page, '仪表盘');
  expect(await page.getByRole('navigation').getByRole('link').allTextContents()).toEqual([
    '仪表盘',
    '令牌',
    '日志',
    '快速开始',
  ]);
  // The header's switch saves the choice to the signed-in account.
  await page.getByRole('button', { name: 'English' }).click();
  await settle(page, 'Dashboard');
  await page.getByRole('button', { name: '简体中文' }).click();
  await settle(page, '仪表盘');
  await expect
    .poll(
      async () => {
        const users = await adminCall(gateway.origin, ADMIN_TOKEN, 'GET', '/users');
        return (users.data ?? users).find((user: { username: string }) => user.username === 'alice')
          ?.language;
      },
      { timeout: 8_000 },
    )
    .toBe('zh-CN');
  await saveScreenshot(page, 'desktop-zh-user-dashboard');
  await context.close();

  // A new browser whose own language is English follows the account's saved language.
  const fresh = await openContext(browser, { origin: gateway.origin, locale: 'en-US' });
  const again = await fresh.newPage();
  await again.goto('/');
  await again.getByRole('tab', { name: 'Account' }).click();
  await again.getByLabel('Username', { exact: true }).fill(ALICE.username);
  await again.getByLabel('Password', { exact: true }).fill(ALICE.password);
  await again.getByRole('button', { name: 'Sign in' }).click();
  await settle(again, '仪表盘');
  await again.getByRole('navigation').getByRole('link', { name: '令牌' }).click();
  await settle(again, '令牌');
  await saveScreenshot(again, 'desktop-zh-user-keys');
  await fresh.close();
});

test('every admin page on a desktop, with a screenshot', async () => {
  const context = await openContext(browser, { origin: gateway.origin });
  const page = await context.newPage();
  await signInWithToken(page, ADMIN_TOKEN);
  for (const name of ADMIN_PAGES) {
    await page.getByRole('navigation').getByRole('link', { name, exact: true }).click();
    await settle(page, name);
    await saveScreenshot(page, `desktop-admin-${slug(name)}`);
  }
  await context.close();
}, 40_000);

test('375 px wide: no horizontal scrolling on any page, navigation behind the Menu button', async () => {
  const context = await openContext(browser, { origin: gateway.origin, viewport: PHONE });
  const page = await context.newPage();
  await page.goto('/');
  await settle(page, 'Sign in');
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await saveScreenshot(page, 'phone-sign-in');
  await signInWithToken(page, ADMIN_TOKEN);

  const overflowing: string[] = [];
  for (const name of ADMIN_PAGES) {
    const link = page.getByRole('navigation').getByRole('link', { name, exact: true });
    expect(await link.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menu' }).click();
    await link.click();
    await settle(page, name);
    if ((await horizontalOverflow(page)) > 0) overflowing.push(name);
    await saveScreenshot(page, `phone-admin-${slug(name)}`);
  }
  await page.getByRole('button', { name: 'Sign out' }).click();

  await signInWithPassword(page, BOB);
  for (const name of USER_PAGES) {
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation').getByRole('link', { name, exact: true }).click();
    await settle(page, name);
    if ((await horizontalOverflow(page)) > 0) overflowing.push(`user ${name}`);
    await saveScreenshot(page, `phone-user-${slug(name)}`);
  }
  expect(overflowing).toEqual([]);
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
    PHONE.width,
  );
  await context.close();
}, 60_000);
