import OpenAI from 'openai';
import type { Page } from 'playwright-core';
import { beforeAll, expect, test } from 'vitest';
import { ADMIN_TOKEN, ALICE, MODEL, useConsoleBrowserFixture } from '../helpers/console-browser-fixture.js';
import {
  PHONE,
  expectOneHeading,
  openContext,
  saveScreenshot,
  signInWithPassword,
  signInWithToken,
} from '../helpers/console-browser.js';

// The Chinese interface, the 375 px phone layout, and a screenshot of every main page (desktop and
// phone) in test-artifacts/screenshots/. The set-up is done through the management API here; the
// console's own forms are driven in console-setup-flow.test.ts.

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
  'Redemption codes',
  'Invite codes',
  'Orders',
  'Settings',
  'Logs',
  'Pricing',
];
const USER_PAGES = ['Dashboard', 'Keys', 'Logs', 'Playground', 'Pricing', 'Redeem', 'Top up', 'Quick start'];

const fixture = useConsoleBrowserFixture({ seed: { models: [MODEL, 'gpt-4o'] } });

beforeAll(async () => {
  // Card top-up shows once a Stripe key is saved; no page here starts a payment, and the API base is
  // a loopback port nothing listens on, so nothing could reach Stripe anyway.
  await fixture.call('PATCH', '/settings', {
    stripe_secret_key: 'sk_test_browser_pages',
    stripe_api_base: 'http://127.0.0.1:9',
  });
  const bob = await fixture.call('POST', '/users', { ...BOB, balance: 5, language: 'en' });
  await fixture.call('POST', '/keys', { user_id: bob.id, name: 'bob-phone' });
  const client = new OpenAI({
    apiKey: fixture.alice.key,
    baseURL: `${fixture.gateway.origin}/v1`,
    maxRetries: 0,
  });
  await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] });
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
  const context = await openContext(fixture.browser, { origin: fixture.gateway.origin });
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
    '操练场',
    '价格',
    '兑换',
    '充值',
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
        const users = await fixture.call('GET', '/users');
        return (users.data ?? users).find((user: { username: string }) => user.username === 'alice')
          ?.language;
      },
      { timeout: 8_000 },
    )
    .toBe('zh-CN');
  await saveScreenshot(page, 'desktop-zh-user-dashboard');
  await context.close();

  // A new browser whose own language is English follows the account's saved language.
  const fresh = await openContext(fixture.browser, { origin: fixture.gateway.origin, locale: 'en-US' });
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
  const context = await openContext(fixture.browser, { origin: fixture.gateway.origin });
  const page = await context.newPage();
  await signInWithToken(page, ADMIN_TOKEN);
  for (const name of ADMIN_PAGES) {
    await page.getByRole('navigation').getByRole('link', { name, exact: true }).click();
    await settle(page, name);
    await saveScreenshot(page, `desktop-admin-${slug(name)}`);
  }
  await context.close();
}, 60_000);

test('375 px wide: no horizontal scrolling on any page, navigation behind the Menu button', async () => {
  const context = await openContext(fixture.browser, { origin: fixture.gateway.origin, viewport: PHONE });
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
}, 90_000);
