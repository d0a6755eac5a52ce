import OpenAI from 'openai';
import { expect, test } from 'vitest';
import {
  ADMIN_TOKEN,
  ALICE,
  MODEL,
  UPSTREAM_KEY,
  useConsoleBrowserFixture,
} from '../helpers/console-browser-fixture.js';
import {
  expectOneHeading,
  openContext,
  openPage,
  saveScreenshot,
  signInWithPassword,
  signInWithToken,
} from '../helpers/console-browser.js';

// What README's "Web console" promises a new user: set up a channel, a price, a user and a key from
// the browser alone, call the gateway with an SDK, and see the request in Logs and on the Dashboard.

const fixture = useConsoleBrowserFixture({ admin: 'signed-out' });
const { call } = fixture;
let aliceKey = '';

test('the root admin signs in with the admin token and sees the whole navigation', async () => {
  await fixture.admin.goto('/');
  await expectOneHeading(fixture.admin, 'Sign in');
  await signInWithToken(fixture.admin, ADMIN_TOKEN);
  await expectOneHeading(fixture.admin, 'Dashboard');
  const entries = await fixture.admin.getByRole('navigation').getByRole('link').allTextContents();
  expect(entries).toEqual([
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
  ]);
});

test('a channel pointing at the fake vendor is created through the form', async () => {
  await openPage(fixture.admin, 'Channels');
  await fixture.admin.getByRole('button', { name: 'New channel' }).click();
  const dialog = fixture.admin.getByRole('dialog');
  await dialog.getByLabel('Name', { exact: true }).fill('fake-openai');
  await dialog.getByLabel('Channel type', { exact: true }).selectOption('openai');
  await dialog.getByLabel('Base URL', { exact: true }).fill(fixture.upstream.origin);
  await dialog.getByLabel('Key 1', { exact: true }).fill(UPSTREAM_KEY);
  await dialog.getByLabel('Models', { exact: true }).fill(MODEL);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await dialog.waitFor({ state: 'detached' });
  await fixture.admin.getByRole('table', { name: 'Channels' }).getByText('fake-openai').waitFor();

  const channels = await call('GET', '/channels');
  const created = (channels.data ?? channels).find(
    (channel: { name: string }) => channel.name === 'fake-openai',
  );
  expect(created).toMatchObject({ type: 'openai', base_url: fixture.upstream.origin, models: [MODEL] });
});

test('the model is priced on the Models page', async () => {
  await openPage(fixture.admin, 'Models');
  const row = fixture.admin.getByRole('row').filter({ hasText: MODEL });
  await row.getByText('not priced').waitFor();
  await row.getByRole('button', { name: 'Set price' }).click();
  const dialog = fixture.admin.getByRole('dialog');
  await dialog.getByLabel('Input (USD per 1M tokens)', { exact: true }).fill('0.15');
  await dialog.getByLabel('Output (USD per 1M tokens)', { exact: true }).fill('0.6');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'detached' });
  await row.getByText('not priced').waitFor({ state: 'detached' });
  expect(await call('GET', `/prices/${MODEL}`)).toMatchObject({ input: 0.15, output: 0.6 });
});

test('a user with a password and a key for that user are created; the full key is shown once', async () => {
  await openPage(fixture.admin, 'Users');
  await fixture.admin.getByRole('button', { name: 'New user' }).click();
  let dialog = fixture.admin.getByRole('dialog');
  await dialog.getByLabel('Username', { exact: true }).fill(ALICE.username);
  await dialog.getByLabel('Password', { exact: true }).fill(ALICE.password);
  await dialog.getByLabel('Balance (USD)', { exact: true }).fill('5');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await dialog.waitFor({ state: 'detached' });
  await fixture.admin
    .getByRole('table', { name: 'Users' })
    .getByRole('row')
    .filter({ hasText: ALICE.username })
    .waitFor();
  const users = await call('GET', '/users');
  const alice = (users.data ?? users).find((user: { username: string }) => user.username === ALICE.username);
  expect(alice).toMatchObject({ role: 'user', balance: 5 });

  await openPage(fixture.admin, 'Keys');
  await fixture.admin.getByRole('button', { name: 'New key' }).click();
  dialog = fixture.admin.getByRole('dialog');
  await dialog
    .getByLabel('User', { exact: true })
    .selectOption({ label: `${ALICE.username} (#${alice.id})` });
  await dialog.getByLabel('Name', { exact: true }).fill('alice-laptop');
  await dialog.getByRole('button', { name: 'Create' }).click();
  const fullKey = fixture.admin.getByTestId('full-key');
  await fullKey.waitFor();
  aliceKey = (await fullKey.textContent())?.trim() ?? '';
  expect(aliceKey).toMatch(/^sk-\S{20,}$/);
  await saveScreenshot(fixture.admin, 'desktop-key-created');
  await fixture.admin.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await fixture.admin.getByTestId('full-key').waitFor({ state: 'detached' });
  const keysTable = fixture.admin.getByRole('table', { name: 'Keys' });
  await keysTable.getByText('alice-laptop').waitFor();
  expect(await keysTable.textContent()).not.toContain(aliceKey);
});

test('the key works with the official openai SDK, and the request shows in Logs and on the Dashboard', async () => {
  const client = new OpenAI({ apiKey: aliceKey, baseURL: `${fixture.gateway.origin}/v1`, maxRetries: 0 });
  const completion = await client.chat.completions.create({
    model: MODEL,
    messages: [{ role: 'user', content: 'Hello from the browser test' }],
  });
  expect(completion.choices[0]?.message.content).toBe('Hello from fake OpenAI.');
  expect(fixture.upstream.requests.length).toBeGreaterThan(0);

  await openPage(fixture.admin, 'Logs');
  await fixture.admin.getByRole('button', { name: 'Refresh' }).click();
  const logs = fixture.admin.getByRole('table', { name: 'Logs' });
  await logs.getByText(MODEL).first().waitFor();
  expect(await logs.getByRole('row').count()).toBe(2); // the header and the one request
  await saveScreenshot(fixture.admin, 'desktop-logs');

  await openPage(fixture.admin, 'Dashboard');
  await fixture.admin.getByRole('button', { name: 'Refresh' }).click();
  await fixture.admin.getByRole('table', { name: 'By model' }).getByText(MODEL).waitFor();
  await fixture.admin.getByRole('table', { name: 'By channel' }).getByText('fake-openai').waitFor();
  await saveScreenshot(fixture.admin, 'desktop-dashboard');
}, 40_000);

test('a user signs in with username and password and sees only their own keys', async () => {
  const bob = await call('POST', '/users', { username: 'bob', balance: 1 });
  await call('POST', '/keys', { user_id: bob.id, name: 'bob-phone' });

  const context = await openContext(fixture.browser, { origin: fixture.gateway.origin });
  const page = await context.newPage();
  await signInWithPassword(page, ALICE);
  const entries = await page.getByRole('navigation').getByRole('link').allTextContents();
  expect(entries).toEqual(['Dashboard', 'Keys', 'Logs', 'Playground', 'Pricing', 'Redeem', 'Quick start']);

  await openPage(page, 'Keys');
  const keysTable = page.getByRole('table', { name: 'Keys' });
  await keysTable.getByText('alice-laptop').waitFor();
  expect(await keysTable.textContent()).not.toContain('bob-phone');
  expect(await keysTable.getByRole('row').count()).toBe(2);
  await saveScreenshot(page, 'desktop-user-keys');

  await openPage(page, 'Logs');
  await page.getByRole('table', { name: 'Logs' }).getByText(MODEL).first().waitFor();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expectOneHeading(page, 'Sign in');
  await context.close();
});
