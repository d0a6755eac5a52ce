import type { Locator, Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { ALICE, MODEL, UPSTREAM_KEY, useConsoleBrowserFixture } from '../helpers/console-browser-fixture.js';
import {
  openContext,
  openPage,
  PHONE,
  saveScreenshot,
  signInWithPassword,
} from '../helpers/console-browser.js';

// Stored bodies from the console (admin-api section 12): an admin turns on `log_bodies` in a key's
// form, requests are relayed with that key, and the record's details show what the client sent and
// what it got back; the Logs page also shows what an audio request was billed by (section 14).
// Channel, price, user and key are set up through the management API.

const REPLY = 'The lighthouse lamp is lit at dusk.';

const fixture = useConsoleBrowserFixture({ replyText: REPLY, seed: { models: [MODEL] }, admin: 'signed-in' });
const { call } = fixture;

/** A chat completion with Alice's key; the gateway's id of the request. */
async function chat(options: { prompt: string; stream: boolean }): Promise<string> {
  const response = await fetch(`${fixture.gateway.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fixture.alice.key}`, 'content-type': 'application/json' },
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
  await openPage(fixture.admin, 'Logs');
  const dialog = await openDetails(fixture.admin, requestId);
  await dialog
    .getByText('The bodies of this request are not stored', { exact: false })
    .waitFor({ state: 'visible' });
  expect(await dialog.getByRole('region', { name: 'Request body' }).count()).toBe(0);
  await closeDetails(dialog);
});

test('an admin turns on the storing of a key’s bodies in its form', async () => {
  await openPage(fixture.admin, 'Keys');
  await fixture.admin
    .getByRole('row')
    .filter({ hasText: 'alice-laptop' })
    .getByRole('button', { name: 'Edit' })
    .click();
  const dialog = fixture.admin.getByRole('dialog');
  const storeBodies = dialog.getByLabel('Store bodies', { exact: true });
  expect(await storeBodies.inputValue()).toBe('group');
  await storeBodies.selectOption({ label: 'On' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'detached' });
  expect((await call('GET', `/keys/${fixture.alice.keyId}`)).log_bodies).toBe(true);
});

test('the admin reads the prompt and the reply of a request in its details', async () => {
  const prompt = 'Who keeps the lighthouse on the northern cape?';
  const requestId = await chat({ prompt, stream: false });
  await openPage(fixture.admin, 'Logs');
  const dialog = await openDetails(fixture.admin, requestId);
  const request = dialog.getByRole('region', { name: 'Request body' });
  // Indented as JSON: one member a line.
  await request.getByText(`"content": "${prompt}"`, { exact: false }).waitFor();
  const response = dialog.getByRole('region', { name: 'Response body' });
  await response.getByText(`"content": "${REPLY}"`, { exact: false }).waitFor();
  expect(await dialog.getByRole('alert').count()).toBe(0);
  await response.scrollIntoViewIfNeeded();
  await saveScreenshot(fixture.admin, 'desktop-log-bodies-json');
  await closeDetails(dialog);
});

test('a streamed reply is shown as its events, ending with [DONE]', async () => {
  const requestId = await chat({ prompt: 'Stream the lighthouse story.', stream: true });
  await openPage(fixture.admin, 'Logs');
  const dialog = await openDetails(fixture.admin, requestId);
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
  await saveScreenshot(fixture.admin, 'desktop-log-bodies-stream');
  await closeDetails(dialog);
});

test('Alice reads her own request’s bodies on her Logs page, on her phone', async () => {
  const prompt = 'What does the keeper eat for breakfast?';
  const requestId = await chat({ prompt, stream: false });
  const context = await openContext(fixture.browser, { origin: fixture.gateway.origin, viewport: PHONE });
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

test('a speech request shows the characters it was billed by, in the list and in its details', async () => {
  await call('POST', '/channels', {
    name: 'speech',
    type: 'openai',
    base_url: fixture.upstream.origin,
    keys: [UPSTREAM_KEY],
    models: ['tts-1'],
    endpoints: ['audio-speech'],
  });
  await call('PUT', '/prices/tts-1', { input: 0, output: 0, per_million_characters: 15 });
  const response = await fetch(`${fixture.gateway.origin}/v1/audio/speech`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fixture.alice.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'tts-1', input: 'Light the lamp at dusk.', voice: 'alloy' }),
  });
  expect(response.status).toBe(200);
  await response.arrayBuffer();
  const requestId = response.headers.get('x-gateway-request-id');
  if (!requestId) throw new Error('the gateway named no request id');
  await openPage(fixture.admin, 'Logs');
  const dialog = await openDetails(fixture.admin, requestId);
  const page = fixture.admin;
  const audio = dialog.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Audio' }) });
  expect(await audio.getByRole('cell').textContent()).toBe('23 chars');
  await closeDetails(dialog);
  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: `Details of request ${requestId}` }) });
  expect(await row.getByText('23 chars', { exact: true }).count()).toBe(1);
});
