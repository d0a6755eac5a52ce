import { expect, test } from 'vitest';
import { ALICE, MODEL, useConsoleBrowserFixture } from '../helpers/console-browser-fixture.js';
import { openContext, openPage, saveScreenshot, signInWithPassword } from '../helpers/console-browser.js';

// The playground (admin-api section 15): a signed-in user chats with a model through the gateway's
// own relay, the answer streams in, and the tokens and cost shown are those the balance was charged.

const REPLY = 'Hello from the fake upstream, streamed in pieces.';

const fixture = useConsoleBrowserFixture({ replyText: REPLY, seed: { models: [MODEL] } });
const { call } = fixture;

test('a user’s question is answered as a stream, with its tokens and the cost taken from the balance', async () => {
  const context = await openContext(fixture.browser, { origin: fixture.gateway.origin });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await signInWithPassword(page, ALICE);
  await openPage(page, 'Playground');
  const model = page.getByLabel('Model', { exact: true });
  await expect.poll(() => model.inputValue()).toBe(MODEL);
  const before = (await call('GET', `/users/${fixture.alice.id}`)).balance as number;

  await page.getByLabel('Message', { exact: true }).fill('Say hello');
  await page.getByRole('button', { name: 'Send' }).click();
  const answer = page.getByTestId('playground-answer');
  await expect.poll(() => answer.getByTestId('answer-text').textContent()).toBe(REPLY);
  const stats = answer.getByTestId('answer-stats');
  await expect
    .poll(() => stats.textContent(), { timeout: 10_000 })
    .toMatch(/^20 tokens in · 12 out · cost \$/);

  const logs = await call('GET', `/logs?user_id=${fixture.alice.id}&limit=5`);
  const record = (logs.data as { stream: boolean; cost: number; key_id: number }[])[0]!;
  expect(record.stream).toBe(true);
  expect(record.key_id).not.toBe(fixture.alice.keyId);
  expect(record.cost).toBeGreaterThan(0);
  expect(await stats.textContent()).toContain(`cost $${record.cost.toFixed(6)}`);
  const after = (await call('GET', `/users/${fixture.alice.id}`)).balance as number;
  expect(after).toBeCloseTo(before - record.cost, 9);
  await expect
    .poll(() => page.getByTestId('playground-balance').textContent())
    .toBe(`Balance: $${after.toFixed(6)}`);
  await saveScreenshot(page, 'desktop-playground');

  // The playground's key is the user's own, named so, and short-lived.
  const keys = await call('GET', `/keys?user_id=${fixture.alice.id}`);
  const playgroundKey = (keys.data as { id: number; name: string; expires_at: number | null }[]).find(
    (key) => key.id === record.key_id,
  );
  expect(playgroundKey?.name).toBe('Playground (console)');
  expect(playgroundKey?.expires_at).toBeGreaterThan(Date.now() / 1000);
  expect(pageErrors).toEqual([]);
  await context.close();
});
