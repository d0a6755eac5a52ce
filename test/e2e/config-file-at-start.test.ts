import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { startTestGateway } from '../helpers/start-test-gateway.js';

/**
 * `GATEWAY_CONFIG_FILE` (admin-api section 13): applied at start, before serving; what it declares
 * reads `"managed": "config"` and cannot be changed through the API; an invalid file stops the
 * start with its first error at its place in the file.
 */
const folder = mkdtempSync(path.join(tmpdir(), 'gateway-config-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function fileWith(name: string, text: string): string {
  const file = path.join(folder, name);
  writeFileSync(file, text);
  return file;
}

describe('a configuration file at start', () => {
  test('is applied before serving: its entities are there, managed, and read-only', async () => {
    const configFile = fileWith(
      'gateway.yaml',
      `channels:
  - { name: primary, type: openai, keys: [sk-file-key], models: [gpt-4o] }
prices:
  - { model: gpt-4o, input: 2.5, output: 10 }
settings:
  retry_times: 5
`,
    );
    const gw = await startTestGateway({ configFile });
    try {
      const channels = (await gw.admin('GET', '/channels')).body.data;
      expect(channels).toMatchObject([{ name: 'primary', managed: 'config' }]);
      expect((await gw.admin('GET', '/settings')).body.retry_times).toBe(5);
      const refused = await gw.admin('PATCH', `/channels/${channels[0].id}`, { priority: 1 });
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toContain(configFile);
      expect(gw.gateway.services.catalog.price('gpt-4o')).toBeDefined();
    } finally {
      await gw.close();
    }
  });

  test('an invalid file stops the start, naming the first error at its place', async () => {
    const configFile = fileWith(
      'broken.yaml',
      'channels:\n  - { name: a, type: opena, keys: [k], models: [m] }\n',
    );
    await expect(startTestGateway({ configFile })).rejects.toThrow(/channels\[0\]\.type: must be one of/);
  });
});
