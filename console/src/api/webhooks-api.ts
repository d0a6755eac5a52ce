import { apiRequest } from './api-client';
import type { ListResponse, WebhookDelivery, WebhookTestResult } from './types';

/** Sends a signed `webhook.test` event to the saved `webhook_url` now; 400 while none is set. */
export function sendTestWebhook(): Promise<WebhookTestResult> {
  return apiRequest<WebhookTestResult>('/webhook-deliveries/test', { method: 'POST' });
}

/** The newest events of the outbox and how their delivery stands (admin-api section 10.1). */
export async function listWebhookDeliveries(limit: number): Promise<WebhookDelivery[]> {
  return (await apiRequest<ListResponse<WebhookDelivery>>('/webhook-deliveries', { query: { limit } })).data;
}
