import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import { gatewayStoreVariants } from '../helpers/test-stores.js';

/**
 * `/api/virtual-models` (admin-api section 11.2): create with the documented defaults, read, list,
 * change, delete; a name may not be a model a channel serves and a target may not be a virtual
 * model. On SQLite, and on PostgreSQL when `DATABASE_URL` is set; the catalogue sees each change.
 */
describe.each(gatewayStoreVariants())('virtual models on $name', (variant) => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway(variant.options);
    const channel = await gateway.admin('POST', '/channels', {
      name: 'openai',
      type: 'openai',
      base_url: 'http://127.0.0.1:9',
      keys: ['k'],
      models: ['gpt-4o', 'gpt-4o-mini'],
      status: 'disabled',
    });
    expect(channel.status).toBe(201);
  });
  afterAll(async () => {
    await gateway?.close();
    await variant.cleanUp();
  });

  const expectInvalid = (response: { status: number; body: any }, field: string) => {
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_request');
    expect(response.body.error.param).toBe(field.split(/[.[]/)[0]);
    expect(response.body.error.message).toContain(`"${field}"`);
  };

  it('creates one with the documented defaults, and the catalogue knows it at once', async () => {
    const created = await gateway.admin('POST', '/virtual-models', {
      name: 'smart',
      targets: [{ model: 'claude-sonnet-4-5' }, { model: 'gpt-4o', priority: -1, weight: 3 }],
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      name: 'smart',
      targets: [
        { model: 'claude-sonnet-4-5', priority: 0, weight: 1 },
        { model: 'gpt-4o', priority: -1, weight: 3 },
      ],
      strategy: 'priority',
      fallback_on: ['rate_limit', 'server_error', 'timeout', 'context_length', 'content_filter'],
      sticky: true,
      managed: 'api',
    });
    expect((await gateway.admin('GET', '/virtual-models/smart')).body).toEqual(created.body);
    expect(gateway.gateway.services.catalog.virtualModel('smart')).toMatchObject({
      strategy: 'priority',
      fallbackOn: created.body.fallback_on,
      sticky: true,
    });
  });

  it('changes what a patch names and keeps the rest', async () => {
    await gateway.admin('POST', '/virtual-models', { name: 'fast', targets: [{ model: 'gpt-4o-mini' }] });
    const patched = await gateway.admin('PATCH', '/virtual-models/fast', {
      strategy: 'latency',
      fallback_on: ['timeout'],
      sticky: false,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({
      name: 'fast',
      targets: [{ model: 'gpt-4o-mini', priority: 0, weight: 1 }],
      strategy: 'latency',
      fallback_on: ['timeout'],
      sticky: false,
      managed: 'api',
    });
    expect(gateway.gateway.services.catalog.virtualModel('fast')?.sticky).toBe(false);
    const list = await gateway.admin('GET', '/virtual-models');
    expect(list.body.data.map((model: { name: string }) => model.name)).toEqual(['fast', 'smart']);
  });

  it('refuses a name a channel serves (disabled or not), a taken name, and bad members, naming them', async () => {
    const target = [{ model: 'gpt-4o' }];
    expectInvalid(
      await gateway.admin('POST', '/virtual-models', { name: 'gpt-4o-mini', targets: target }),
      'name',
    );
    expectInvalid(await gateway.admin('POST', '/virtual-models', { name: 'smart', targets: target }), 'name');
    expectInvalid(await gateway.admin('POST', '/virtual-models', { name: 'a@b', targets: target }), 'name');
    expectInvalid(await gateway.admin('POST', '/virtual-models', { name: 'x', targets: [] }), 'targets');
    expectInvalid(await gateway.admin('POST', '/virtual-models', { name: 'x' }), 'targets');
    expectInvalid(
      await gateway.admin('POST', '/virtual-models', {
        name: 'x',
        targets: [{ model: 'gpt-4o' }, { model: 'gpt-4o' }],
      }),
      'targets',
    );
    expectInvalid(
      await gateway.admin('POST', '/virtual-models', {
        name: 'x',
        targets: [{ model: 'gpt-4o', weight: 0 }],
      }),
      'targets[0].weight',
    );
    expectInvalid(
      await gateway.admin('POST', '/virtual-models', { name: 'x', targets: [{ model: 'smart' }] }),
      'targets[0].model',
    );
    expectInvalid(
      await gateway.admin('POST', '/virtual-models', { name: 'x', targets: [{ model: 'x' }] }),
      'targets[0].model',
    );
    expectInvalid(
      await gateway.admin('POST', '/virtual-models', { name: 'x', targets: target, strategy: 'cheapest' }),
      'strategy',
    );
    expectInvalid(
      await gateway.admin('POST', '/virtual-models', {
        name: 'x',
        targets: target,
        fallback_on: ['refusal'],
      }),
      'fallback_on[0]',
    );
    expectInvalid(
      await gateway.admin('POST', '/virtual-models', { name: 'x', targets: target, sticky: 'yes' }),
      'sticky',
    );
    expectInvalid(await gateway.admin('PATCH', '/virtual-models/fast', { name: 'renamed' }), 'name');
    expect((await gateway.admin('GET', '/virtual-models/x')).status).toBe(404);
    expect((await gateway.admin('PATCH', '/virtual-models/x', { sticky: true })).status).toBe(404);
  });

  it('deletes, answering what was deleted, and the catalogue forgets it', async () => {
    const deleted = await gateway.admin('DELETE', '/virtual-models/fast');
    expect(deleted.status).toBe(200);
    expect(deleted.body.name).toBe('fast');
    expect(gateway.gateway.services.catalog.virtualModel('fast')).toBeUndefined();
    expect((await gateway.admin('DELETE', '/virtual-models/fast')).status).toBe(404);
  });
});
