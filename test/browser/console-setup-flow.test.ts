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

// What README's "Web console" promises a new user: set up a channel, a price, a user and a key from
// the browser alone, call the gateway with an SDK, and see the request in Logs and on the Dashboard.

const ADMIN_TOKEN = 'browser-admin-token';
const UPSTREAM_KEY = 'sk-fake-upstream';
const MODEL = 'gpt-4o-mini';
const ALICE = { username: 'alice', password: 'alice-password-1' };

let dataDir: string;
let gateway: BuiltGateway;
let upstream: FakeUpstream;
let browser: Browser;
let admin: Page;
let aliceKey = '';

beforeAll(async () => {
  // Builds dist/ and, when its sources changed, console/dist (the build skips it otherwise).
  await ensureGatewayBuilt();
  dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-browser-'));
  await allStarted([
    startFakeOpenAI({ apiKey: UPSTREAM_KEY }).then((started) => (upstream = started)),
    startBuiltGateway({ GATEWAY_DATA_DIR: dataDir, GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN }).then(
      (started) => (gateway = started),
    ),
    launchChromium().then((started) => (browser = started)),
  ]);
  admin = await (await openContext(browser, { origin: gateway.origin })).newPage();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (gateway) await stopBuiltGateway(gateway);
  await upstream?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function openPage(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name, exact: true }).click();
  await expectOneHeading(page, name);
}

test('the root admin signs in with the admin token and sees the whole navigation', async () => {
  await admin.goto('/');
  await expectOneHeading(admin, 'Sign in');
  await signInWithToken(admin, ADMIN_TOKEN);
  await expectOneHeading(admin, 'Dashboard');
  const entries = await admin.getByRole('navigation').getByRole('link').allTextContents();
  expect(entries).toEqual([
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
  ]);
});

test('a channel pointing at the fake vendor is created through the form', async () => {
  await openPage(admin, 'Channels');
  await admin.getByRole('button', { name: 'New channel' }).click();
  const dialog = admin.getByRole('dialog');
  await dialog.getByLabel('Name', { exact: true }).fill('fake-openai');
  await dialog.getByLabel('Channel type', { exact: true }).selectOption('openai');
  await dialog.getByLabel('Base URL', { exact: true }).fill(upstream.origin);
  await dialog.getByLabel('Key 1', { exact: true }).fill(UPSTREAM_KEY);
  await dialog.getByLabel('Models', { exact: true }).fill(MODEL);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await dialog.waitFor({ state: 'detached' });
  await admin.getByRole('table', { name: 'Channels' }).getByText('fake-openai').waitFor();

  const channels = await adminCall(gateway.origin, ADMIN_TOKEN, 'GET', '/channels');
  const created = (channels.data ?? channels).find(
    (channel: { name: string }) => channel.name === 'fake-openai',
  );
  expect(created).toMatchObject({ type: 'openai', base_url: upstream.origin, models: [MODEL] });
});

test('the model is priced on the Models page', async () => {
  await openPage(admin, 'Models');
  const row = admin.getByRole('row').filter({ hasText: MODEL });
  await row.getByText('not priced').waitFor();
  await row.getByRole('button', { name: 'Set price' }).click();
  const dialog = admin.getByRole('dialog');
  await dialog.getByLabel('Input (USD per 1M tokens)', { exact: true }).fill('0.15');
  await dialog.getByLabel('Output (USD per 1M tokens)', { exact: true }).fill('0.6');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'detached' });
  await row.getByText('not priced').waitFor({ state: 'detached' });
  expect(await adminCall(gateway.origin, ADMIN_TOKEN, 'GET', `/prices/${MODEL}`)).toMatchObject({
    input: 0.15,
    output: 0.6,
  });
});

test('a user with a password and a key for that user are created; the full key is shown once', async () => {
  await openPage(admin, 'Users');
  await admin.getByRole('button', { name: 'New user' }).click();
  let dialog = admin.getByRole('dialog');
  await dialog.getByLabel('Username', { exact: true }).fill(ALICE.username);
  await dialog.getByLabel('Password', { exact: true }).fill(ALICE.password);
  await dialog.getByLabel('Balance (USD)', { exact: true }).fill('5');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await dialog.waitFor({ state: 'detached' });
  await admin
    .getByRole('table', { name: 'Users' })
    .getByRole('row')
    .filter({ hasText: ALICE.username })
    .waitFor();
  const users = await adminCall(gateway.origin, ADMIN_TOKEN, 'GET', '/users');
  const alice = (users.data ?? users).find((user: { username: string }) => user.username === ALICE.username);
  expect(alice).toMatchObject({ role: 'user', balance: 5 });

  await openPage(admin, 'Keys');
  await admin.getByRole('button', { name: 'New key' }).click();
  dialog = admin.getByRole('dialog');
  await dialog
    .getByLabel('User', { exact: true })
    .selectOption({ label: `${ALICE.username} (#${alice.id})` });
  await dialog.getByLabel('Name', { exact: true }).fill('alice-laptop');
  await dialog.getByRole('button', { name: 'Create' }).click();
  const fullKey = admin.getByTestId('full-key');
  await fullKey.waitFor();
  aliceKey = (await fullKey.textContent())?.trim() ?? '';
  expect(aliceKey).toMatch(/^sk-\S{20,}$/);
  await saveScreenshot(admin, 'desktop-key-created');
  await admin.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await admin.getByTestId('full-key').waitFor({ state: 'detached' });
  const keysTable = admin.getByRole('table', { name: 'Keys' });
  await keysTable.getByText('alice-laptop').waitFor();
  expect(await keysTable.textContent()).not.toContain(aliceKey);
});

test('the key works with the official openai SDK, and the request shows in Logs and on the Dashboard', async () => {
  const client = new OpenAI({ apiKey: aliceKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
  const completion = await client.chat.completions.create({
    model: MODEL,
    messages: [{ role: 'user', content: 'Hello from the browser test' }],
  });
  expect(completion.choices[0]?.message.content).toBe('Hello from fake OpenAI.');
  expect(upstream.requests.length).toBeGreaterThan(0);

  await openPage(admin, 'Logs');
  await admin.getByRole('button', { name: 'Refresh' }).click();
  const logs = admin.getByRole('table', { name: 'Logs' });
  await logs.getByText(MODEL).first().waitFor();
  expect(await logs.getByRole('row').count()).toBe(2); // the header and the one request
  await saveScreenshot(admin, 'desktop-logs');

  await openPage(admin, 'Dashboard');
  await admin.getByRole('button', { name: 'Refresh' }).click();
  await admin.getByRole('table', { name: 'By model' }).getByText(MODEL).waitFor();
  await admin.getByRole('table', { name: 'By channel' }).getByText('fake-openai').waitFor();
  await saveScreenshot(admin, 'desktop-dashboard');
}, 40_000);

test('a user signs in with username and password and sees only their own keys', async () => {
  const bob = await adminCall(gateway.origin, ADMIN_TOKEN, 'POST', '/users', { username: 'bob', balance: 1 });
  await adminCall(gateway.origin, ADMIN_TOKEN, 'POST', '/keys', { user_id: bob.id, name: 'bob-phone' });

  const context = await openContext(browser, { origin: gateway.origin });
  const page = await context.newPage();
  await signInWithPassword(page, ALICE);
  const entries = await page.getByRole('navigation').getByRole('link').allTextContents();
  expect(entries).toEqual(['Dashboard', 'Keys', 'Logs', 'Quick start']);

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
