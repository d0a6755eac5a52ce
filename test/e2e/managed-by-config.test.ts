import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CONFIG_FILE_STATE } from '../../src/store/managed-entities-repository.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../helpers/start-test-gateway.js';
import { gatewayStoreVariants } from '../helpers/test-stores.js';

/**
 * Entities a configuration file declares (admin-api section 13) read `"managed": "config"` and
 * refuse every write through the API with 409 `managed_by_config`; the others read
 * `"managed": "api"` and stay writable. The file marks what it declares; here the marks are set in
 * the database directly, as an apply leaves them.
 */
const FILE = '/etc/model-gateway/gateway.yaml';

describe.each(gatewayStoreVariants())('entities managed by the configuration file on $name', (variant) => {
  let gw: TestGateway;
  let managedChannel: number;
  let freeChannel: number;
  let managedGuardrail: number;
  beforeAll(async () => {
    gw = await startTestGateway(variant.options);
    const channel = (name: string) =>
      gw.admin('POST', '/channels', {
        name,
        type: 'openai',
        keys: ['sk-upstream'],
        models: [`${name}-model`],
      });
    managedChannel = (await channel('from-file')).body.id;
    freeChannel = (await channel('from-api')).body.id;
    await gw.admin('PUT', '/prices/file-model', { input: 1, output: 2 });
    await gw.admin('PUT', '/prices/api-model', { input: 1, output: 2 });
    await gw.admin('PUT', '/groups/file-group', { ratio: 0.5 });
    await gw.admin('PUT', '/models/file-model', { context_window: 1000 });
    await gw.admin('POST', '/virtual-models', {
      name: 'file-virtual',
      targets: [{ model: 'from-file-model' }],
    });
    managedGuardrail = (
      await gw.admin('POST', '/guardrails', { name: 'file-guard', kind: 'regex', pattern: 'x' })
    ).body.id;
    await gw.admin('PATCH', '/settings', { retry_times: 4 });

    const { db } = gw.gateway.services.store;
    const mark = async (table: 'channels' | 'groups' | 'virtual_models' | 'guardrails', name: string) =>
      db.updateTable(table).set({ managed: 'config' }).where('name', '=', name).execute();
    await mark('channels', 'from-file');
    await mark('groups', 'file-group');
    await mark('virtual_models', 'file-virtual');
    await mark('guardrails', 'file-guard');
    await db.updateTable('prices').set({ managed: 'config' }).where('model', '=', 'file-model').execute();
    await db
      .updateTable('model_metadata')
      .set({ managed: 'config' })
      .where('model', '=', 'file-model')
      .execute();
    await db.updateTable('settings').set({ managed: 'config' }).where('name', '=', 'retry_times').execute();
    await db.insertInto('system_state').values({ name: CONFIG_FILE_STATE, value: FILE }).execute();
  });
  afterAll(async () => {
    await gw?.close();
    await variant.cleanUp();
  });

  const refused = async (method: string, path: string, body?: unknown) => {
    const response = await gw.admin(method, path, body);
    expect(response.status, `${method} ${path}`).toBe(409);
    expect(response.body.error.code).toBe('managed_by_config');
    expect(response.body.error.message).toContain(FILE);
    return response;
  };

  test('reads say who manages each entity', async () => {
    const channels = (await gw.admin('GET', '/channels')).body.data;
    expect(channels.map((channel: any) => [channel.name, channel.managed]).sort()).toEqual([
      ['from-api', 'api'],
      ['from-file', 'config'],
    ]);
    expect((await gw.admin('GET', `/channels/${managedChannel}`)).body.managed).toBe('config');
    expect((await gw.admin('GET', '/prices/file-model')).body.managed).toBe('config');
    expect((await gw.admin('GET', '/prices/api-model')).body.managed).toBe('api');
    const groups = (await gw.admin('GET', '/groups')).body.data;
    expect(groups.find((group: any) => group.name === 'file-group').managed).toBe('config');
    expect(groups.find((group: any) => group.name === 'default').managed).toBe('api');
    expect((await gw.admin('GET', '/models')).body.data[0].managed).toBe('config');
    expect((await gw.admin('GET', '/virtual-models/file-virtual')).body.managed).toBe('config');
    expect((await gw.admin('GET', '/guardrails')).body.data[0].managed).toBe('config');
  });

  test('GET /api/config-file names the file and the settings it manages', async () => {
    expect((await gw.admin('GET', '/config-file')).body).toEqual({ file: FILE, settings: ['retry_times'] });
    const user = await gw.admin('POST', '/users', {
      username: 'not-an-admin',
      password: 'a-long-password-1',
    });
    const key = (await gw.admin('POST', '/keys', { user_id: user.body.id })).body.key;
    const response = await fetch(`${gw.origin}/api/config-file`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(401);
  });

  test('every write of a managed entity is 409, naming the file', async () => {
    await refused('PATCH', `/channels/${managedChannel}`, { priority: 5 });
    await refused('DELETE', `/channels/${managedChannel}`);
    await refused('POST', '/channels', { name: 'from-file', type: 'openai', keys: ['k'], models: ['m'] });
    await refused('PATCH', `/channels/${freeChannel}`, { name: 'from-file' });
    await refused('PUT', '/prices/file-model', { input: 9, output: 9 });
    await refused('DELETE', '/prices/file-model');
    await refused('PUT', '/groups/file-group', { ratio: 2 });
    await refused('PUT', '/models/file-model', { context_window: 5 });
    await refused('DELETE', '/models/file-model');
    await refused('POST', '/virtual-models', {
      name: 'file-virtual',
      targets: [{ model: 'from-api-model' }],
    });
    await refused('PATCH', '/virtual-models/file-virtual', { sticky: false });
    await refused('DELETE', '/virtual-models/file-virtual');
    await refused('POST', '/guardrails', { name: 'file-guard', kind: 'regex', pattern: 'y' });
    await refused('PATCH', `/guardrails/${managedGuardrail}`, { pattern: 'z' });
    await refused('DELETE', `/guardrails/${managedGuardrail}`);
    const setting = await refused('PATCH', '/settings', { default_max_tokens: 100, retry_times: 1 });
    expect(setting.body.error.message).toContain('retry_times');

    // Nothing was changed by the refused writes.
    expect((await gw.admin('GET', `/channels/${managedChannel}`)).body.priority).toBe(0);
    expect((await gw.admin('GET', '/prices/file-model')).body.input).toBe(1);
    expect((await gw.admin('GET', '/settings')).body).toMatchObject({
      retry_times: 4,
      default_max_tokens: 8192,
    });
  });

  test('what the file does not manage stays writable', async () => {
    expect((await gw.admin('PATCH', `/channels/${freeChannel}`, { priority: 2 })).body).toMatchObject({
      priority: 2,
      managed: 'api',
    });
    expect((await gw.admin('PUT', '/prices/api-model', { input: 3, output: 4 })).status).toBe(200);
    expect((await gw.admin('PUT', '/groups/api-group', { ratio: 3 })).body.managed).toBe('api');
    expect((await gw.admin('PATCH', '/settings', { default_max_tokens: 100 })).status).toBe(200);
    expect((await gw.admin('DELETE', '/prices/api-model')).status).toBe(200);
  });

  test('the refusal is in the caller’s language', async () => {
    const response = await fetch(`${gw.origin}/api/prices/file-model`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'accept-language': 'zh-CN' },
    });
    expect(response.status).toBe(409);
    expect(((await response.json()) as any).error.message).toContain('由配置文件');
  });
});
