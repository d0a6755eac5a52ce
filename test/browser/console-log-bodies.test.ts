import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { allStarted } from '../helpers/all-started.js';
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
  PHONE,
  saveScreenshot,
  signInWithPassword,
  signInWithToken,
} from '../helpers/console-browser.js';

// A whole browser session per test: about 10 s alone, and more with the rest of the suite on both cores.
vi.setConfig({ testTimeout: 60_000 });

// Stored bodies from the console (admin-api section 12): an admin turns on `log_bodies` in a key's
// form, requests are relayed with that key, and the record's details show what the client sent and
// what it got back. Channel, price, user and key are set up through the management API.

const ADMIN_TOKEN = 'browser-admin-token';
const UPSTREAM_KEY = 'sk-fake-upstream';
const MODEL = 'gpt-4o-mini';
const REPLY = 'The lighthouse lamp is lit at dusk.';
const ALICE = { username: 'alice', password: 'alice-password-1' };

let dataDir: string;
let gateway: BuiltGateway;
let upstream: FakeUpstream;
let browser: Browser;
let admin: Page;
let keyId = 0;
let aliceKey = '';
/** Uncaught errors of the admin's page: a crashed page fails the test that crashed it. */
const pageErrors: string[] = [];

const call = (method: string, route: string, body?: unknown) =>
  adminCall(gateway.origin, ADMIN_TOKEN, method, route, body);

beforeAll(async () => {
  await ensureGatewayBuilt();
  dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-browser-'));
  await allStarted([
    startFakeOpenAI({ apiKey: UPSTREAM_KEY, replyText: REPLY }).then((started) => (upstream = started)),
    startBuiltGateway({ GATEWAY_DATA_DIR: dataDir, GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN }).then(
      (started) => (gateway = started),
    ),
    launchChromium().then((started) => (browser = started)),
  ]);
  await call('POST', '/channels', {
    name: 'fake-openai',
    type: 'openai',
    base_url: upstream.origin,
    keys: [UPSTREAM_KEY],
    models: [MODEL],
  });
  await call('PUT', `/prices/${MODEL}`, { input: 0.15, output: 0.6 });
  const alice = await call('POST', '/users', { ...ALICE, balance: 5 });
  const key = await call('POST', '/keys', { user_id: alice.id, name: 'alice-laptop' });
  keyId = key.id;
  aliceKey = key.key;
  admin = await (await openContext(browser, { origin: gateway.origin })).newPage();
  admin.on('pageerror', (error) => pageErrors.push(error.message));
  await signInWithToken(admin, ADMIN_TOKEN);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (gateway) await stopBuiltGateway(gateway);
  await upstream?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});

async function openPage(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name, exact: true }).click();
  await expectOneHeading(page, name);
}

/** A chat completion with Alice's key; the gateway's id of the request. */
async function chat(options: { prompt: string; stream: boolean }): Promise<string> {
  const response = await fetch(`${gateway.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${aliceKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: MODEL,
      messages: [{ role: 'user', content: options.prompt }],
      stream: options.stream,
    }),
  });
  expect(response.status).toBe(200);
  await response.text();
  const requestId = response.headers.get('x-gateway-request-id');
  if (!requestId) throw new Error('the gateway named no request id');
  return requestId;
}

/**
 * Opens the details of one request from the Logs page: its record is written just after the reply,
 * so the list is refreshed until the record is there.
 */
async function openDetails(page: Page, requestId: string): Promise<Locator> {
  const details = page.getByRole('button', { name: `Details of request ${requestId}`, exact: true });
  await expect
    .poll(
      async () => {
        if (await details.isVisible()) return true;
        await page.getByRole('button', { name: 'Refresh', exact: true }).click();
        return false;
      },
      { timeout: 10_000, interval: 500 },
    )
    .toBe(true);
  await details.click();
  return page.getByRole('dialog', { name: `Request ${requestId}`, exact: true });
}

async function closeDetails(dialog: Locator): Promise<void> {
  await dialog.page().keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
}

test('a key that follows its group stores no bodies, and its details say so', async () => {
  const requestId = await chat({ prompt: 'Is this prompt kept?', stream: false });
  await openPage(admin, 'Logs');
  const dialog = await openDetails(admin, requestId);
  await dialog
    .getByText('The bodies of this request are not stored', { exact: false })
    .waitFor({ state: 'visible' });
  expect(await dialog.getByRole('region', { name: 'Request body' }).count()).toBe(0);
  await closeDetails(dialog);
});

test('an admin turns on the storing of a key’s bodies in its form', async () => {
  await openPage(admin, 'Keys');
  await admin
    .getByRole('row')
    .filter({ hasText: 'alice-laptop' })
    .getByRole('button', { name: 'Edit' })
    .click();
  const dialog = admin.getByRole('dialog');
  const storeBodies = dialog.getByLabel('Store bodies', { exact: true });
  expect(await storeBodies.inputValue()).toBe('group');
  await storeBodies.selectOption({ label: 'On' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'detached' });
  expect((await call('GET', `/keys/${keyId}`)).log_bodies).toBe(true);
});

test('the admin reads the prompt and the reply of a request in its details', async () => {
  const prompt = 'Who keeps the lighthouse on the northern cape?';
  const requestId = await chat({ prompt, stream: false });
  await openPage(admin, 'Logs');
  const dialog = await openDetails(admin, requestId);
  const request = dialog.getByRole('region', { name: 'Request body' });
  // Indented as JSON: one member a line.
  await request.getByText(`"content": "${prompt}"`, { exact: false }).waitFor();
  const response = dialog.getByRole('region', { name: 'Response body' });
  await response.getByText(`"content": "${REPLY}"`, { exact: false }).waitFor();
  expect(await dialog.getByRole('alert').count()).toBe(0);
  await response.scrollIntoViewIfNeeded();
  await saveScreenshot(admin, 'desktop-log-bodies-json');
  await closeDetails(dialog);
});

test('a streamed reply is shown as its events, ending with [DONE]', async () => {
  const requestId = await chat({ prompt: 'Stream the lighthouse story.', stream: true });
  await openPage(admin, 'Logs');
  const dialog = await openDetails(admin, requestId);
  const response = dialog.getByRole('region', { name: 'Response body' });
  await response.getByText(/^A stream of \d+ events$/).waitFor();
  const events = await response.getByRole('listitem').allTextContents();
  expect(events.length).toBeGreaterThan(2);
  expect(events.at(-1)).toBe(`#${events.length}[DONE]`);
  // Each delta carries a piece of the reply, its data indented as JSON.
  expect(events.filter((event) => event.includes('"content": "lighthouse'))).toHaveLength(1);
  await dialog
    .getByRole('region', { name: 'Request body' })
    .getByText('Stream the lighthouse story.', { exact: false })
    .waitFor();
  await response.scrollIntoViewIfNeeded();
  await saveScreenshot(admin, 'desktop-log-bodies-stream');
  await closeDetails(dialog);
});

test('Alice reads her own request’s bodies on her Logs page, on her phone', async () => {
  const prompt = 'What does the keeper eat for breakfast?';
  const requestId = await chat({ prompt, stream: false });
  const context = await openContext(browser, { origin: gateway.origin, viewport: PHONE });
  const page = await context.newPage();
  await signInWithPassword(page, ALICE);
  await page.getByRole('button', { name: 'Menu' }).click();
  await openPage(page, 'Logs');
  const dialog = await openDetails(page, requestId);
  await dialog
    .getByRole('region', { name: 'Request body' })
    .getByText(`"content": "${prompt}"`, { exact: false })
    .waitFor();
  await dialog.getByRole('region', { name: 'Response body' }).getByText(REPLY, { exact: false }).waitFor();
  await saveScreenshot(page, 'phone-log-bodies');
  await context.close();
});
