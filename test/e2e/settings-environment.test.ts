import { afterEach, describe, expect, it } from 'vitest';
import { readEnvironment } from '../../src/config/environment.js';
import { defaultSettings } from '../../src/config/settings-schema.js';
import { createGateway, type Gateway } from '../../src/gateway.js';
import { createLogger } from '../../src/observability/logger.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../helpers/start-test-gateway.js';

// admin-api sections 2, 10 and 10.1: every setting has its `GATEWAY_<NAME>` variable, read at start;
// `webhook_secret` is shown masked and never logged.

const SECRET = 'whsec_from_the_environment_0123456789';

let started: { close(): Promise<void> } | undefined;
afterEach(async () => {
  await started?.close();
  started = undefined;
});

describe('spend-limit settings from the environment', () => {
  it('reads the time zone, the webhook URL and the webhook secret', () => {
    expect(
      readEnvironment({
        GATEWAY_BUDGET_TIME_ZONE: 'America/New_York',
        GATEWAY_WEBHOOK_URL: 'https://hooks.example.com/gateway',
        GATEWAY_WEBHOOK_SECRET: SECRET,
      }).settings,
    ).toEqual({
      budget_time_zone: 'America/New_York',
      webhook_url: 'https://hooks.example.com/gateway',
      webhook_secret: SECRET,
    });
  });

  it('leaves the defaults to unset and empty variables', () => {
    const settings = readEnvironment({ GATEWAY_WEBHOOK_URL: '', GATEWAY_WEBHOOK_SECRET: '' }).settings;
    expect(settings).toEqual({});
    expect({ ...defaultSettings, ...settings }).toMatchObject({
      budget_time_zone: 'UTC',
      webhook_url: null,
      webhook_secret: null,
    });
  });

  it.each([
    ['GATEWAY_BUDGET_TIME_ZONE', 'Atlantis/Capital', 'must be an IANA time zone name'],
    ['GATEWAY_WEBHOOK_URL', 'ftp://hooks.example.com/gateway', 'must be an http or https URL'],
    ['GATEWAY_WEBHOOK_URL', 'not a url', 'must be an http or https URL'],
  ])('refuses to start with %s=%s, naming the variable', (variable, value, problem) => {
    expect(() => readEnvironment({ [variable]: value })).toThrow(`${variable} is invalid: ${problem}`);
  });

  it('refuses an oversized secret without repeating it', () => {
    const oversized = `${SECRET}${'x'.repeat(2000)}`;
    let message = '';
    try {
      readEnvironment({ GATEWAY_WEBHOOK_SECRET: oversized });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('GATEWAY_WEBHOOK_SECRET is invalid');
    expect(message).not.toContain(SECRET);
  });

  it('serves the values it was started with, the secret masked; a value set through the API wins', async () => {
    const gateway: TestGateway = await startTestGateway({
      settings: readEnvironment({
        GATEWAY_BUDGET_TIME_ZONE: 'Europe/Paris',
        GATEWAY_WEBHOOK_URL: 'http://127.0.0.1:9/events',
        GATEWAY_WEBHOOK_SECRET: SECRET,
      }).settings,
    });
    started = gateway;
    const read = await gateway.admin('GET', '/settings');
    expect(read.body).toEqual({
      ...defaultSettings,
      budget_time_zone: 'Europe/Paris',
      webhook_url: 'http://127.0.0.1:9/events',
      webhook_secret: 'whse...6789',
    });
    expect(gateway.gateway.services.settings.get().webhook_secret).toBe(SECRET);

    const patched = await gateway.admin('PATCH', '/settings', { budget_time_zone: 'Asia/Tokyo' });
    expect(patched.body).toMatchObject({ budget_time_zone: 'Asia/Tokyo', webhook_secret: 'whse...6789' });
    expect(gateway.gateway.services.settings.get().budget_time_zone).toBe('Asia/Tokyo');
  });
});

describe('the webhook secret in the log', () => {
  it('is never written, at any level, whether it comes from the environment or the API', async () => {
    const lines: string[] = [];
    const logger = createLogger('trace', 'json', { write: (line: string) => void lines.push(line) });
    const environment = readEnvironment({ GATEWAY_WEBHOOK_SECRET: SECRET });
    const gateway: Gateway = await createGateway(
      { ...environment, dataDir: ':memory:', adminToken: TEST_ADMIN_TOKEN, port: 0 },
      logger,
    );
    started = gateway;
    const origin = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
    const settings = (method: string, body?: unknown) =>
      fetch(`${origin}/api/settings`, {
        method,
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const fromApi = 'whsec_set_through_the_api_9876543210';
    expect((await settings('GET')).status).toBe(200);
    expect((await settings('PATCH', { webhook_secret: fromApi })).status).toBe(200);
    expect((await settings('PATCH', { webhook_secret: `${fromApi}${'y'.repeat(2000)}` })).status).toBe(400);
    expect((await settings('PATCH', { webhook_secret: fromApi, retry_times: 'x' })).status).toBe(400);
    expect((await settings('GET')).status).toBe(200);

    const log = lines.join('');
    expect(log).toContain('/api/settings');
    expect(log).not.toContain(SECRET);
    expect(log).not.toContain(fromApi);
  });

  it('is redacted should a settings object ever be logged', () => {
    const lines: string[] = [];
    const logger = createLogger('info', 'json', { write: (line: string) => void lines.push(line) });
    logger.info({ settings: { webhook_secret: SECRET, webhook_url: 'https://hooks.example.com' } }, 'x');
    expect(lines.join('')).not.toContain(SECRET);
    expect(JSON.parse(lines[0]!).settings).toEqual({
      webhook_secret: '[Redacted]',
      webhook_url: 'https://hooks.example.com',
    });
  });
});
