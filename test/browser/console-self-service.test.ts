import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { startFakeStripe } from '../fakes/fake-stripe.js';
import { ALICE, MODEL, useConsoleBrowserFixture } from '../helpers/console-browser-fixture.js';
import {
  expectOneHeading,
  openContext,
  openPage,
  saveScreenshot,
  signInWithPassword,
} from '../helpers/console-browser.js';

// Sign-up and money in from the console (admin-api section 15): the public price list and the
// registration page reached from sign-in, redemption codes made on the admin's page (their CSV
// downloaded) and redeemed by a user, and a card top-up through a fake Stripe on loopback.

const fixture = useConsoleBrowserFixture({
  alongside: { stripe: startFakeStripe },
  seed: { models: [MODEL] },
  admin: 'signed-in',
});
const { call } = fixture;

async function signedOutPage(): Promise<Page> {
  const context = await openContext(fixture.browser, { origin: fixture.gateway.origin });
  const page = await context.newPage();
  await page.goto('/');
  await expectOneHeading(page, 'Sign in');
  return page;
}

async function balanceOf(userId: number): Promise<number> {
  return (await call('GET', `/users/${userId}`)).balance;
}

test('the price list is public: reached from the sign-in page without signing in', async () => {
  const page = await signedOutPage();
  await page.getByRole('link', { name: 'See the prices' }).click();
  // Registration is closed unless an admin opens it: the sign-in page offers none.
  expect(await page.getByRole('link', { name: 'Create an account' }).count()).toBe(0);
  await expectOneHeading(page, 'Pricing');
  const row = page.getByRole('table', { name: 'Prices' }).getByRole('row').filter({ hasText: MODEL });
  await expect.poll(() => row.locator('td[data-label="Input"]').textContent()).toBe('$0.15');
  expect(await row.locator('td[data-label="Output"]').textContent()).toBe('$0.60');
  await saveScreenshot(page, 'desktop-public-pricing');

  await call('PATCH', '/settings', { pricing_public: false });
  await page.reload();
  await page
    .getByRole('status')
    .getByText('Prices on this gateway are shown to signed-in users only.')
    .waitFor();
  await call('PATCH', '/settings', { pricing_public: true });
  await page.context().close();
});

test('with registration open, a visitor creates an account and is signed in with the new-user balance', async () => {
  await call('PATCH', '/settings', { registration: 'open', new_user_balance: 2 });
  const page = await signedOutPage();
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expectOneHeading(page, 'Create an account');
  await page.getByLabel(/^Username/).fill('carol');
  await page.getByLabel(/^Password/).fill('carol-password');
  await page.getByLabel(/^Repeat password/).fill('carol-password');
  await saveScreenshot(page, 'desktop-register');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  await expectOneHeading(page, 'Dashboard');
  expect(new URL(page.url()).pathname).toBe('/');
  await page.getByRole('region', { name: 'Account' }).getByText('$2.000000').first().waitFor();
  const users = await call('GET', '/users');
  const carol = (users.data as { username: string; balance: number }[]).find(
    (user) => user.username === 'carol',
  );
  expect(carol?.balance).toBe(2);
  await page.context().close();
});

test('with registration by invite, the admin makes an invite code and a visitor registers with it', async () => {
  await call('PATCH', '/settings', { registration: 'invite', new_user_balance: 0 });
  const admin = fixture.admin;
  await openPage(admin, 'Invite codes');
  await admin.getByRole('button', { name: 'New invite codes' }).click();
  const form = admin.getByRole('dialog', { name: 'New invite codes' });
  await form.getByLabel(/^How many/).fill('1');
  await form.getByRole('button', { name: 'Create codes' }).click();
  const shown = admin.getByRole('dialog', { name: '1 new invite code' });
  const code = (await shown.getByTestId('created-invite-codes').textContent()) ?? '';
  expect(code).toMatch(/^inv_\S+$/);
  await shown.getByRole('button', { name: 'Close' }).click();

  const page = await signedOutPage();
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByText('Registration needs an invite code from an administrator.').waitFor();
  await page.getByLabel(/^Username/).fill('dave');
  await page.getByLabel(/^Password/).fill('dave-password');
  await page.getByLabel(/^Repeat password/).fill('dave-password');
  await page.getByLabel(/^Invite code/).fill(code);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  await page.context().close();

  await admin.reload();
  await expectOneHeading(admin, 'Invite codes');
  const row = admin.getByRole('table', { name: 'Invite codes' }).getByRole('row').filter({ hasText: 'dave' });
  await row.getByText('used', { exact: true }).waitFor();
  await call('PATCH', '/settings', { registration: 'closed' });
});

test('the admin makes redemption codes, downloads them as CSV, and a user redeems one', async () => {
  const admin = fixture.admin;
  await openPage(admin, 'Redemption codes');
  await admin.getByRole('button', { name: 'New codes' }).click();
  const form = admin.getByRole('dialog', { name: 'New redemption codes' });
  await form.getByLabel(/^Amount/).fill('2.5');
  await form.getByLabel(/^How many/).fill('3');
  await form.getByLabel(/^Name/).fill('spring');
  await form.getByRole('button', { name: 'Create codes' }).click();
  const shown = admin.getByRole('dialog', { name: '3 new redemption codes' });
  await shown.getByText(/shown only now/).waitFor();
  await saveScreenshot(admin, 'desktop-redemption-codes-created');
  const [download] = await Promise.all([
    admin.waitForEvent('download'),
    shown.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^redemption-codes-spring-\d+\.csv$/);
  const csv = readFileSync(await download.path(), 'utf8');
  const lines = csv.split('\r\n');
  expect(lines[0]).toBe('id,code,amount,expires_at,name');
  expect(lines).toHaveLength(5);
  const rows = lines.slice(1, 4).map((line) => line.split(','));
  for (const row of rows) expect(row.slice(2)).toEqual(['2.5', '', 'spring']);
  const code = rows[0]![1]!;
  expect(await shown.getByTestId('created-redemption-codes').textContent()).toContain(code);
  await shown.getByRole('button', { name: 'Close' }).click();

  const context = await openContext(fixture.browser, { origin: fixture.gateway.origin });
  const page = await context.newPage();
  await signInWithPassword(page, ALICE);
  const before = await balanceOf(fixture.alice.id);
  await openPage(page, 'Redeem');
  await page.getByLabel(/^Redemption code/).fill(code);
  await page.getByRole('button', { name: 'Redeem' }).click();
  await expect.poll(() => balanceOf(fixture.alice.id)).toBeCloseTo(before + 2.5, 9);
  const history = page.getByRole('table', { name: 'Balance history' });
  await history.getByRole('row').filter({ hasText: 'Redemption code' }).getByText('+$2.500000').waitFor();
  await saveScreenshot(page, 'desktop-redeem');

  // A code credits once.
  await page.getByLabel(/^Redemption code/).fill(code);
  await page.getByRole('button', { name: 'Redeem' }).click();
  await page
    .getByRole('alert', { name: 'Something went wrong' })
    .getByText('This redemption code is not valid: it is wrong, used, expired or disabled')
    .waitFor();
  expect(await balanceOf(fixture.alice.id)).toBeCloseTo(before + 2.5, 9);
  await context.close();

  await admin.reload();
  await expectOneHeading(admin, 'Redemption codes');
  const used = admin
    .getByRole('table', { name: 'Redemption codes' })
    .getByRole('row')
    .filter({ hasText: 'alice' });
  await used.getByText('used', { exact: true }).waitFor();
});

test('a card top-up goes to Stripe and back, and the orders reload until the payment is credited', async () => {
  const stripe = fixture.alongside.stripe;
  stripe.webhookUrl = `${fixture.gateway.origin}/api/webhooks/stripe`;
  await call('PATCH', '/settings', {
    stripe_secret_key: stripe.secretKey,
    stripe_webhook_secret: stripe.webhookSecret,
    stripe_api_base: stripe.origin,
  });
  const context = await openContext(fixture.browser, { origin: fixture.gateway.origin });
  const page = await context.newPage();
  await signInWithPassword(page, ALICE);
  const before = await balanceOf(fixture.alice.id);
  await openPage(page, 'Top up');
  await page.getByLabel(/^Amount/).fill('10');
  await page.getByRole('button', { name: 'Pay with Stripe' }).click();
  // The fake's payment page; its button pays, delivers the signed webhook and returns to the console.
  await page.waitForURL(`${stripe.origin}/**`);
  await page.getByRole('button', { name: 'Pay' }).click();
  await page.waitForURL(`${fixture.gateway.origin}/topup?order=*`);
  await page.getByRole('status').getByText('Paid: $10.000000 was added to your balance.').waitFor();
  const orders = page.getByRole('table', { name: 'Your orders' });
  await orders.getByText('paid', { exact: true }).waitFor();
  expect(await balanceOf(fixture.alice.id)).toBeCloseTo(before + 10, 9);
  await saveScreenshot(page, 'desktop-top-up-paid');
  await context.close();

  await openPage(fixture.admin, 'Orders');
  const row = fixture.admin
    .getByRole('table', { name: 'Orders' })
    .getByRole('row')
    .filter({ hasText: 'alice' });
  await row.getByText('paid', { exact: true }).waitFor();
  await row.getByRole('button', { name: /events$/ }).click();
  await fixture.admin.getByRole('dialog').getByText('Balance credited').waitFor();
  await saveScreenshot(fixture.admin, 'desktop-orders-events');
});
