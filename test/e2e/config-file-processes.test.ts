import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ensureGatewayBuilt,
  repositoryRoot,
  startBuiltGateway,
  stopBuiltGateway,
  type BuiltGateway,
} from '../helpers/built-gateway.js';
import { sendOnNewConnection, waitFor } from '../helpers/cluster-gateway.js';
import { dropSchema, uniqueSchemaName } from '../helpers/test-stores.js';

/**
 * The configuration file against real processes (admin-api section 13): applied at start, again on
 * `SIGHUP` (by a cluster's primary once, every worker seeing the change), an invalid file on
 * `SIGHUP` leaving everything as it was, a restart writing nothing and keeping ids, several
 * instances starting together with one file, and an instance hearing of another's apply.
 */
const TOKEN = 'config-file-admin-token';
const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
const folder = mkdtempSync(path.join(tmpdir(), 'gateway-config-processes-'));

beforeAll(() => ensureGatewayBuilt(), 120_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function configText(models: string[], type = 'openai'): string {
  return `channels:
  - name: primary
    type: ${type}
    base_url: http://127.0.0.1:9
    keys: ["\${PRIMARY_KEYS}"]
    models: [${models.join(', ')}]
prices:
${models.map((model) => `  - { model: ${model}, input: 1, output: 2 }\n`).join('')}settings:
  retry_times: 2
`;
}

interface Variant {
  name: string;
  environment(): Record<string, string>;
  cleanUp(environment: Record<string, string>): Promise<void>;
}

const sqlite = (workers: number): Variant => ({
  name: `SQLite, ${workers} process${workers > 1 ? 'es' : ''}`,
  environment: () => ({
    GATEWAY_DATA_DIR: mkdtempSync(path.join(folder, 'data-')),
    GATEWAY_WORKERS: String(workers),
  }),
  cleanUp: async (environment) => rmSync(environment.GATEWAY_DATA_DIR!, { recursive: true, force: true }),
});
const postgres = (workers: number): Variant => ({
  name: `PostgreSQL, ${workers} process${workers > 1 ? 'es' : ''}`,
  environment: () => ({
    DATABASE_URL: databaseUrl!,
    DATABASE_SCHEMA: uniqueSchemaName(),
    GATEWAY_WORKERS: String(workers),
  }),
  cleanUp: (environment) => dropSchema(databaseUrl!, environment.DATABASE_SCHEMA!),
});
const variants = [sqlite(1), sqlite(2), ...(databaseUrl ? [postgres(1), postgres(2)] : [])];

/** The structured log lines a gateway printed whose message is `message`. */
function logged(gateway: BuiltGateway, message: string): Record<string, unknown>[] {
  return gateway.lines
    .filter((line) => line.includes(message))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === message);
}

async function call(gateway: BuiltGateway, method: string, route: string, body?: unknown): Promise<any> {
  const answer = await sendOnNewConnection(gateway.origin, { method, path: route, token: TOKEN, body });
  if (answer.status >= 300) throw new Error(`${method} ${route}: ${answer.status} ${answer.text}`);
  return JSON.parse(answer.text);
}

/** The models a key lists on `count` connections of their own: with workers, each process in turn. */
async function listedEverywhere(gateway: BuiltGateway, key: string, count = 4): Promise<string[][]> {
  const lists: string[][] = [];
  for (let index = 0; index < count; index += 1) {
    const answer = await sendOnNewConnection(gateway.origin, { path: '/v1/models', token: key });
    lists.push((JSON.parse(answer.text) as { data: { id: string }[] }).data.map((model) => model.id).sort());
  }
  return lists;
}

describe.each(variants)('a configuration file on $name', (variant) => {
  const configFile = path.join(folder, `${variant.name.replace(/\W+/g, '-')}.yaml`);
  const environment: Record<string, string> = {
    ...variant.environment(),
    GATEWAY_ADMIN_TOKEN: TOKEN,
    GATEWAY_CONFIG_FILE: configFile,
    PRIMARY_KEYS: 'sk-from-the-environment',
  };
  let gateway: BuiltGateway;
  let key: string;
  let channelId: number;

  beforeAll(async () => {
    writeFileSync(configFile, configText(['m1']));
    gateway = await startBuiltGateway(environment);
    const user = await call(gateway, 'POST', '/api/users', { username: 'reader', balance: 1 });
    ({ key } = await call(gateway, 'POST', '/api/keys', { user_id: user.id }));
  }, 60_000);
  afterAll(async () => {
    if (gateway.child.exitCode === null) await stopBuiltGateway(gateway);
    await variant.cleanUp(environment);
  });

  test('what the file declares is there before serving, with the key from the environment', async () => {
    const [channel] = (await call(gateway, 'GET', '/api/channels')).data;
    expect(channel).toMatchObject({ name: 'primary', managed: 'config', models: ['m1'] });
    channelId = channel.id;
    for (const list of await listedEverywhere(gateway, key)) expect(list).toEqual(['m1']);
    expect((await call(gateway, 'GET', '/api/settings')).retry_times).toBe(2);
    expect(logged(gateway, 'configuration file applied')).toHaveLength(1);
  });

  test('SIGHUP applies the changed file once, and every process serves from it', async () => {
    writeFileSync(configFile, configText(['m1', 'm2']));
    gateway.child.kill('SIGHUP');
    await waitFor(
      () => listedEverywhere(gateway, key),
      (lists) => lists.every((list) => list.join() === 'm1,m2'),
      { timeoutMs: 10_000, what: 'm2 listed by every process' },
    );
    const applies = await waitFor(
      () => logged(gateway, 'configuration file applied'),
      (lines) => lines.length >= 2,
      { timeoutMs: 5_000, what: 'the second apply logged' },
    );
    expect(applies).toHaveLength(2);
    expect(applies[1]).toMatchObject({ created: 1, changed: 1, deleted: 0 });
    const [channel] = (await call(gateway, 'GET', '/api/channels')).data;
    expect(channel).toMatchObject({ id: channelId, models: ['m1', 'm2'], managed: 'config' });
  });

  test('SIGHUP with an invalid file logs its errors and leaves everything as it was', async () => {
    writeFileSync(configFile, configText(['m3'], 'opena'));
    gateway.child.kill('SIGHUP');
    await waitFor(
      () => logged(gateway, 'configuration file not applied: nothing changed'),
      (lines) => lines.length === 1,
      { timeoutMs: 10_000, what: 'the refusal logged' },
    );
    expect(gateway.lines.some((line) => line.includes('channels[0].type: must be one of'))).toBe(true);
    expect(gateway.child.exitCode).toBeNull();
    for (const list of await listedEverywhere(gateway, key)) expect(list).toEqual(['m1', 'm2']);
    expect((await call(gateway, 'GET', '/api/channels')).data[0].models).toEqual(['m1', 'm2']);
  });

  test('a restart with the same file writes nothing and keeps the ids', async () => {
    writeFileSync(configFile, configText(['m1', 'm2']));
    expect(await stopBuiltGateway(gateway)).toBe(0);
    gateway = await startBuiltGateway(environment);
    expect(logged(gateway, 'configuration file applied')).toEqual([
      expect.objectContaining({ created: 0, changed: 0, deleted: 0 }),
    ]);
    const [channel] = (await call(gateway, 'GET', '/api/channels')).data;
    expect(channel).toMatchObject({ id: channelId, models: ['m1', 'm2'] });
  });

  test('a file applied by `model-gateway config apply` is served after SIGHUP', async () => {
    writeFileSync(configFile, configText(['m1', 'm2', 'm6']));
    const applied = spawnSync(
      process.execPath,
      [path.join(repositoryRoot, 'dist/cli.js'), 'config', 'apply', configFile],
      { env: { PATH: process.env.PATH ?? '', ...environment }, encoding: 'utf8' },
    );
    expect(applied.status, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Running gateways see the changes after SIGHUP or a restart.');
    for (const list of await listedEverywhere(gateway, key)) expect(list).toEqual(['m1', 'm2']);
    gateway.child.kill('SIGHUP');
    await waitFor(
      () => listedEverywhere(gateway, key),
      (lists) => lists.every((list) => list.join() === 'm1,m2,m6'),
      { timeoutMs: 10_000, what: 'm6 listed by every process' },
    );
  });
});

describe.runIf(databaseUrl)('several instances on one PostgreSQL', () => {
  const schema = uniqueSchemaName();
  const configFile = path.join(folder, 'shared.yaml');
  const environment = {
    DATABASE_URL: databaseUrl!,
    DATABASE_SCHEMA: schema,
    GATEWAY_ADMIN_TOKEN: TOKEN,
    GATEWAY_CONFIG_FILE: configFile,
    PRIMARY_KEYS: 'sk-shared',
    ...(redisUrl && { REDIS_URL: redisUrl }),
  };
  let instances: BuiltGateway[] = [];
  afterAll(async () => {
    await Promise.all(instances.map((instance) => stopBuiltGateway(instance)));
    await dropSchema(databaseUrl!, schema);
  });

  test('starting at once with one file apply it once and agree', async () => {
    writeFileSync(configFile, configText(['m1']));
    instances = await Promise.all([0, 1, 2].map(() => startBuiltGateway(environment)));
    const created = instances.flatMap((instance) =>
      logged(instance, 'configuration file applied').map((line) => line.created),
    );
    expect(created.sort()).toEqual([0, 0, 2]);
    const channels = await Promise.all(
      instances.map(async (instance) => (await call(instance, 'GET', '/api/channels')).data),
    );
    expect(channels[0]).toHaveLength(1);
    for (const list of channels) expect(list).toEqual(channels[0]);
  }, 60_000);

  test.runIf(redisUrl)(
    'with Redis, the others hear of one instance applying on SIGHUP',
    async () => {
      const user = await call(instances[0]!, 'POST', '/api/users', { username: 'shared', balance: 1 });
      const { key } = await call(instances[0]!, 'POST', '/api/keys', { user_id: user.id });
      writeFileSync(configFile, configText(['m1', 'm4']));
      instances[0]!.child.kill('SIGHUP');
      const allList = async (models: string) => {
        for (const instance of instances)
          await waitFor(
            () => listedEverywhere(instance, key, 1),
            ([list]) => list!.join() === models,
            { timeoutMs: 10_000, what: `${models} listed by every instance` },
          );
      };
      await allList('m1,m4');

      // `model-gateway config apply` from elsewhere: the instances hear of it through Redis too.
      writeFileSync(configFile, configText(['m1', 'm5']));
      const applied = spawnSync(
        process.execPath,
        [path.join(repositoryRoot, 'dist/cli.js'), 'config', 'apply', configFile],
        {
          env: { PATH: process.env.PATH ?? '', ...environment },
          encoding: 'utf8',
        },
      );
      expect(applied.status, applied.stderr).toBe(0);
      await allList('m1,m5');

      // A cluster's primary starting with a changed file: the instances already serving hear of it.
      writeFileSync(configFile, configText(['m1', 'm7']));
      instances.push(await startBuiltGateway({ ...environment, GATEWAY_WORKERS: '2' }));
      await allList('m1,m7');
    },
    60_000,
  );
});
