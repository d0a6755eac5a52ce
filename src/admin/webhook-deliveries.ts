import type { FastifyInstance } from 'fastify';
import type { GatewayServices } from '../services.js';
import type { StoredWebhookEvent } from '../store/webhook-events-repository.js';
import { postEvent } from '../events/webhooks/webhook-deliverer.js';
import { webhookEvent } from '../events/webhooks/webhook-event.js';
import { invalidRequest } from './admin-error.js';
import { parseListQuery } from './parse-query.js';

/**
 * `GET /api/webhook-deliveries` (admin-api section 10.1): the newest events and how their
 * delivery stands; and `POST /api/webhook-deliveries/test`, which sends a signed `webhook.test`
 * event to `webhook_url` at once and answers what the receiver said (the console's "send test
 * event"). The test event is not stored: it is not an occurrence of anything.
 */
export function registerWebhookDeliveryRoutes(app: FastifyInstance, services: GatewayServices): void {
  app.get('/webhook-deliveries', async (request) => {
    const events = await services.repositories.webhookEvents.recent(parseListQuery(request.query));
    return { data: events.map(serializeDelivery) };
  });

  app.post('/webhook-deliveries/test', async () => {
    const { webhook_url: url, webhook_secret: secret } = services.settings.get();
    if (url === null) throw invalidRequest('webhook_url is not set');
    const event = webhookEvent(
      'webhook.test',
      { message: 'a test event sent from the gateway' },
      { nowS: Math.floor(Date.now() / 1000) },
    );
    const result = await postEvent(url, secret, event.body);
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    return { ok, id: event.id, status_code: result.statusCode, error: result.error };
  });
}

function serializeDelivery(event: StoredWebhookEvent) {
  return {
    id: event.id,
    type: event.type,
    created_at: event.createdAt,
    attempts: event.attempts,
    status: event.status,
    last_status_code: event.lastStatusCode,
  };
}
