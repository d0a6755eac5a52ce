import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import { gatewayStoreVariants } from '../helpers/test-stores.js';

/**
 * `/api/models` (admin-api section 11.1): per public model ID, the context window, the output cap
 * and the capabilities, every member optional and null when unknown; stored on SQLite and on
 * PostgreSQL when `DATABASE_URL` is set, and held by the routing catalogue, which sees a change at once.
 */
describe.each(gatewayStoreVariants())('model metadata on $name', (variant) => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway(variant.options);
  });
  afterAll(async () => {
    await gateway?.close();
    await variant.cleanUp();
  });

  const expectInvalid = (response: { status: number; body: any }, field: string) => {
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_request');
    expect(response.body.error.param).toBe(field);
  };

  it('puts every member, reads it back, and the catalogue knows it at once', async () => {
    const full = { context_window: 200_000, max_output_tokens: 64_000, capabilities: ['tools', 'vision'] };
    const put = await gateway.admin('PUT', '/models/claude-sonnet-4-5', full);
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ model: 'claude-sonnet-4-5', ...full, managed: 'api' });
    expect((await gateway.admin('GET', '/models/claude-sonnet-4-5')).body).toEqual(put.body);
    expect(gateway.gateway.services.catalog.modelMetadata('claude-sonnet-4-5')).toEqual({
      model: 'claude-sonnet-4-5',
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      capabilities: ['tools', 'vision'],
    });
  });

  it('leaves unknown what a put does not give, and tells none from unknown', async () => {
    const bare = await gateway.admin('PUT', '/models/tiny', {});
    expect(bare.body).toEqual({
      model: 'tiny',
      context_window: null,
      max_output_tokens: null,
      capabilities: null,
      managed: 'api',
    });
    const none = await gateway.admin('PUT', '/models/tiny', { capabilities: [] });
    expect(none.body.capabilities).toEqual([]);
    const replaced = await gateway.admin('PUT', '/models/tiny', { context_window: 8_192 });
    expect(replaced.body).toEqual({
      model: 'tiny',
      context_window: 8_192,
      max_output_tokens: null,
      capabilities: null,
      managed: 'api',
    });
  });

  it('takes model ids holding a slash, encoded or not, and lists them in model order', async () => {
    await gateway.admin('PUT', '/models/meta/llama-3', { context_window: 8_192 });
    expect((await gateway.admin('GET', '/models/meta%2Fllama-3')).body.context_window).toBe(8_192);
    const list = await gateway.admin('GET', '/models');
    const models = list.body.data.map((entry: { model: string }) => entry.model);
    expect(models).toEqual([...models].sort());
    expect(models).toContain('meta/llama-3');
  });

  it('refuses what is not metadata, naming the member', async () => {
    expectInvalid(await gateway.admin('PUT', '/models/m', { context_window: 0 }), 'context_window');
    expectInvalid(await gateway.admin('PUT', '/models/m', { context_window: 1.5 }), 'context_window');
    expectInvalid(
      await gateway.admin('PUT', '/models/m', { max_output_tokens: '4096' }),
      'max_output_tokens',
    );
    expectInvalid(await gateway.admin('PUT', '/models/m', { capabilities: ['flying'] }), 'capabilities');
    expectInvalid(
      await gateway.admin('PUT', '/models/m', { capabilities: ['tools', 'tools'] }),
      'capabilities',
    );
    expectInvalid(await gateway.admin('PUT', '/models/m', { capabilities: 'tools' }), 'capabilities');
    expectInvalid(await gateway.admin('PUT', '/models/m', { context: 8_192 }), 'context');
    expectInvalid(await gateway.admin('PUT', '/models/m', { model: 'other' }), 'model');
    expectInvalid(await gateway.admin('PUT', '/models/gpt@high', {}), 'model');
    expect((await gateway.admin('GET', '/models/m')).status).toBe(404);
  });

  it('deletes, answering what was deleted, and the catalogue forgets it', async () => {
    await gateway.admin('PUT', '/models/short-lived', { max_output_tokens: 10 });
    const deleted = await gateway.admin('DELETE', '/models/short-lived');
    expect(deleted.status).toBe(200);
    expect(deleted.body.max_output_tokens).toBe(10);
    expect(gateway.gateway.services.catalog.modelMetadata('short-lived')).toBeUndefined();
    expect((await gateway.admin('DELETE', '/models/short-lived')).status).toBe(404);
  });

  it('is for admins only', async () => {
    const response = await fetch(`${gateway.origin}/api/models`);
    expect(response.status).toBe(401);
  });
});
