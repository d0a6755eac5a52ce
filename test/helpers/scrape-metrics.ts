import { expect } from 'vitest';
import { parsePrometheusText, type Family } from './prometheus-text.js';
import { TEST_ADMIN_TOKEN } from './start-test-gateway.js';

/** `GET /metrics` as the admin, checked to be the Prometheus text format, and parsed. */
export async function scrapeMetrics(origin: string): Promise<Map<string, Family>> {
  const response = await fetch(`${origin}/metrics`, {
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parsePrometheusText(await response.text());
}
