import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import { verifyWebhookSignature } from '../helpers/verify-webhook-signature.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * `POST /api/webhook-deliveries/test` (admin-api section 10.1, the console's "send test event"):
 * refused without `webhook_url`; otherwise a signed `webhook.test` event is posted at once and the
 * answer says what the receiver did.
 */
const SECRET = 'whsec-test-event-secret';

describe('POST /api/webhook-deliveries/test', () => {
  let gw: TestGateway;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    gw = await startTestGateway();
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await gw?.close();
    await receiver?.close();
  });

  test('is refused with 400 invalid_request naming webhook_url while none is set', async () => {
    const response = await gw.admin('POST', '/webhook-deliveries/test');
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: 'gateway_api_error', code: 'invalid_request' });
    expect(response.body.error.message).toContain('webhook_url');
    expect(receiver.received).toHaveLength(0);
  });

  test('posts a signed webhook.test event and answers ok with the status code; the event is not stored', async () => {
    await gw.admin('PATCH', '/settings', { webhook_url: receiver.url, webhook_secret: SECRET });
    const response = await gw.admin('POST', '/webhook-deliveries/test');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ok: true, status_code: 200, id: expect.any(String) });

    expect(receiver.received).toHaveLength(1);
    const [received] = receiver.received;
    expect(verifyWebhookSignature(received!, SECRET)).toMatchObject({ ok: true });
    expect(Object.keys(received!.body).sort()).toEqual(['created_at', 'data', 'id', 'type']);
    expect(received!.body).toMatchObject({ id: response.body.id, type: 'webhook.test' });
    expect(Math.abs(received!.body.created_at - Date.now() / 1000)).toBeLessThan(5);
    expect((await gw.admin('GET', '/webhook-deliveries')).body.data).toEqual([]);
  });

  test('answers ok false with the status code when the receiver answers 500', async () => {
    receiver.setMode({ kind: 'answer', status: 500 });
    try {
      const response = await gw.admin('POST', '/webhook-deliveries/test');
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ ok: false, status_code: 500 });
      expect(receiver.received.at(-1)?.body.type).toBe('webhook.test');
    } finally {
      receiver.setMode({ kind: 'answer', status: 200 });
    }
  });

  test('answers ok false without a status code, and the error, when nothing listens', async () => {
    await receiver.stop();
    try {
      const response = await gw.admin('POST', '/webhook-deliveries/test');
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        ok: false,
        status_code: null,
        error: expect.stringMatching(/\S/),
      });
    } finally {
      await receiver.start();
    }
  });
});
