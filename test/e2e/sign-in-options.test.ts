import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(async () => gw?.close());

const options = async () => {
  const response = await fetch(`${gw.origin}/api/auth/options`);
  return { status: response.status, body: await response.json() };
};

test('the sign-in page learns, without credentials, what it may offer; nothing secret', async () => {
  expect(await options()).toEqual({
    status: 200,
    body: { registration: 'closed', pricing_public: true, topup: false, topup_min_usd: 1 },
  });
  await gw.admin('PATCH', '/settings', {
    registration: 'invite',
    pricing_public: false,
    stripe_secret_key: 'sk_test_51SecretValueThatMustNotLeak',
    topup_min_usd: 5,
  });
  const changed = await options();
  expect(changed.body).toEqual({
    registration: 'invite',
    pricing_public: false,
    topup: true,
    topup_min_usd: 5,
  });
  expect(JSON.stringify(changed.body)).not.toContain('sk_test');
});
