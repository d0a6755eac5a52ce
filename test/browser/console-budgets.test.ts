import OpenAI from 'openai';
import { expect, test } from 'vitest';
import { ALICE, MODEL, useConsoleBrowserFixture } from '../helpers/console-browser-fixture.js';
import { openContext, openPage, saveScreenshot, signInWithPassword } from '../helpers/console-browser.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';

// Spend limits from the console (admin-api section 10): budgets and concurrency caps set through
// the key, user and group forms, their windows' usage as bars, and the webhook's test event
// (section 10.1). Channel, price, user and key are set up through the management API.

const fixture = useConsoleBrowserFixture({
  alongside: { receiver: startWebhookReceiver },
  seed: { models: [MODEL] },
  admin: 'signed-in',
});
const { call } = fixture;

async function chat(): Promise<void> {
  const client = new OpenAI({
    apiKey: fixture.alice.key,
    baseURL: `${fixture.gateway.origin}/v1`,
    maxRetries: 0,
  });
  await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] });
}

test('a key gets a cap and a daily budget through its form; the gateway’s refusal shows in the dialog', async () => {
  await openPage(fixture.admin, 'Keys');
  await fixture.admin
    .getByRole('row')
    .filter({ hasText: 'alice-laptop' })
    .getByRole('button', { name: 'Edit' })
    .click();
  const dialog = fixture.admin.getByRole('dialog');
  await dialog.getByLabel('Max concurrent requests', { exact: true }).fill('2');
  await dialog.getByRole('button', { name: 'Add budget' }).click();
  const budget = dialog.getByRole('group', { name: 'Budget 1' });
  await budget.getByLabel('Request limit', { exact: true }).fill('10');
  await budget.getByLabel('Only these models', { exact: true }).fill('gpt-4o@low');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => dialog.getByRole('alert').textContent()).toContain('must not contain "@"');
  await saveScreenshot(fixture.admin, 'desktop-key-budget-form');

  await budget.getByLabel('Only these models', { exact: true }).fill('');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'detached' });
  const stored = await call('GET', `/keys/${fixture.alice.keyId}`);
  expect(stored.max_concurrency).toBe(2);
  expect(stored.budgets).toEqual([
    { period: 'day', hours: null, usd: null, tokens: null, requests: 10, models: null, alert_at: [] },
  ]);
  await fixture.admin.getByRole('table', { name: 'Keys' }).getByText('day: 10 requests').waitFor();
});

test('the key’s window shows what a request used of it, and when it resets', async () => {
  await chat();
  await fixture.admin
    .getByRole('row')
    .filter({ hasText: 'alice-laptop' })
    .getByRole('button', { name: 'Usage' })
    .click();
  const panel = fixture.admin.getByRole('region', { name: 'Budget usage of alice-laptop' });
  const bar = panel.getByRole('progressbar');
  await expect
    .poll(() => bar.getAttribute('aria-label'))
    .toMatch(/^day · 1 of 10 requests · resets \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  expect(await bar.getAttribute('aria-valuenow')).toBe('10');
  await saveScreenshot(fixture.admin, 'desktop-key-budget-usage');
});

test('a user gets a low balance alert and a total budget through their form', async () => {
  await openPage(fixture.admin, 'Users');
  await fixture.admin
    .getByRole('row')
    .filter({ hasText: 'alice' })
    .getByRole('button', { name: 'Edit' })
    .click();
  const dialog = fixture.admin.getByRole('dialog');
  await dialog.getByLabel('Low balance alert (USD)', { exact: true }).fill('1');
  await dialog.getByRole('button', { name: 'Add budget' }).click();
  const budget = dialog.getByRole('group', { name: 'Budget 1' });
  await budget.getByLabel('Period', { exact: true }).selectOption('total');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect
    .poll(() => budget.getByRole('alert').textContent())
    .toBe('Set at least one limit: USD, tokens or requests');
  await budget.getByLabel('USD limit', { exact: true }).fill('100');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'detached' });
  const stored = await call('GET', `/users/${fixture.alice.id}`);
  expect(stored.low_balance_alert).toBe(1);
  expect(stored.budgets).toEqual([
    { period: 'total', hours: null, usd: 100, tokens: null, requests: null, models: null, alert_at: [] },
  ]);

  await fixture.admin
    .getByRole('row')
    .filter({ hasText: 'alice' })
    .getByRole('button', { name: 'Usage' })
    .click();
  const bar = fixture.admin.getByRole('region', { name: 'Budget usage of alice' }).getByRole('progressbar');
  await expect
    .poll(() => bar.getAttribute('aria-label'))
    .toMatch(/^total · \$0\.\d{6} of \$100\.000000 · resets never$/);
});

test('the user sees their own windows and their key’s on their start page', async () => {
  await chat();
  const context = await openContext(fixture.browser, { origin: fixture.gateway.origin });
  const page = await context.newPage();
  await signInWithPassword(page, ALICE);
  const section = page.getByRole('region', { name: 'Spending limits' });
  await section.getByRole('heading', { name: 'Your account' }).waitFor();
  await section.getByRole('heading', { name: 'Key alice-laptop' }).waitFor();
  const labels = await section
    .getByRole('progressbar')
    .evaluateAll((bars) => bars.map((bar) => bar.getAttribute('aria-label')));
  expect(labels).toHaveLength(2);
  expect(labels[0]).toMatch(/^total · \$0\.\d{6} of \$100\.000000 · resets never$/);
  expect(labels[1]).toMatch(/^day · 2 of 10 requests · resets /);
  await saveScreenshot(page, 'desktop-user-budgets');
  await context.close();
});

test('a group gets a shared monthly budget beside its ratio', async () => {
  await openPage(fixture.admin, 'Groups');
  await fixture.admin.getByLabel('Group', { exact: true }).fill('team-a');
  await fixture.admin.getByLabel('Max concurrent requests', { exact: true }).fill('8');
  await fixture.admin.getByRole('button', { name: 'Add budget' }).click();
  const budget = fixture.admin.getByRole('group', { name: 'Budget 1' });
  await budget.getByLabel('Period', { exact: true }).selectOption('month');
  await budget.getByLabel('USD limit', { exact: true }).fill('50');
  await budget.getByLabel('Alert at (% of the limit)', { exact: true }).fill('50, 90');
  await fixture.admin.getByRole('button', { name: 'Save' }).click();
  const row = fixture.admin
    .getByRole('table', { name: 'Groups' })
    .getByRole('row')
    .filter({ hasText: 'team-a' });
  await row.getByText('month: $50.000000').waitFor();
  const groups = await call('GET', '/groups');
  expect(groups.data.find((group: { name: string }) => group.name === 'team-a')).toEqual({
    name: 'team-a',
    ratio: 1,
    budgets: [
      {
        period: 'month',
        hours: null,
        usd: 50,
        tokens: null,
        requests: null,
        models: null,
        alert_at: [0.5, 0.9],
      },
    ],
    max_concurrency: 8,
    log_bodies: false,
    managed: 'api',
  });
  await row.getByRole('button', { name: 'Usage' }).click();
  const bar = fixture.admin.getByRole('region', { name: 'Budget usage of team-a' }).getByRole('progressbar');
  await expect
    .poll(() => bar.getAttribute('aria-label'))
    .toMatch(/^month · \$0\.000000 of \$50\.000000 · resets /);
});

test('the settings send a signed test event to the webhook and say what the receiver answered', async () => {
  await openPage(fixture.admin, 'Settings');
  const send = fixture.admin.getByRole('button', { name: 'Send test event' });
  const result = send.locator('..').getByRole('status');
  await send.click();
  // The gateway's own message, as the API answered it.
  await expect.poll(() => result.textContent()).toMatch(/^webhook_url is not set/);

  await fixture.admin.getByLabel('Webhook URL', { exact: true }).fill(fixture.alongside.receiver.url);
  await fixture.admin.getByLabel('Webhook secret', { exact: true }).fill('whsec-browser');
  await fixture.admin.getByRole('button', { name: 'Save settings' }).click();
  await expect
    .poll(async () => (await call('GET', '/settings')).webhook_url)
    .toBe(fixture.alongside.receiver.url);
  await send.click();
  await expect.poll(() => result.textContent()).toBe('Delivered: the receiver answered HTTP 200.');
  const event = fixture.alongside.receiver.received.at(-1);
  expect(event?.body.type).toBe('webhook.test');
  expect(String(event?.headers['x-gateway-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

  fixture.alongside.receiver.setMode({ kind: 'answer', status: 503 });
  await send.click();
  await expect.poll(() => result.textContent()).toBe('Not delivered: the receiver answered HTTP 503.');
  await fixture.admin.getByRole('region', { name: 'Recent webhook deliveries' }).waitFor();
  await saveScreenshot(fixture.admin, 'desktop-settings-webhook');
});

test('the routing settings are chosen on the Settings page and saved through the management API', async () => {
  await openPage(fixture.admin, 'Settings');
  await fixture.admin.getByLabel('Channel choice', { exact: true }).selectOption({ label: 'Lowest latency' });
  await fixture.admin.getByLabel('Prompt-cache affinity (s)', { exact: true }).fill('900');
  await fixture.admin.getByRole('button', { name: 'Save settings' }).click();
  await expect
    .poll(async () => {
      const settings = await call('GET', '/settings');
      return [settings.routing_strategy, settings.sticky_ttl_s];
    })
    .toEqual(['latency', 900]);
  await call('PATCH', '/settings', { routing_strategy: 'weighted', sticky_ttl_s: 600 });
});
