import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { applyConfigFile } from '../../src/config-file/apply-config-file.js';
import { parseConfigText } from '../../src/config-file/read-config-file.js';
import type { ConfigFile } from '../../src/config-file/config-file-schema.js';
import type { Store } from '../../src/store/database.js';
import { createRepositories, type Repositories } from '../../src/store/repositories.js';
import { dropSchema, storeVariants, uniqueSchemaName } from '../helpers/test-stores.js';
import { openStore } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrate.js';

const FILE = '/etc/model-gateway/gateway.yaml';
const BASE = `
channels:
  - { name: openai, type: openai, keys: ["\${OPENAI_KEY}"], models: [gpt-4o] }
  - { name: claude, type: anthropic, keys: [sk-ant-file], models: [claude-a], priority: 2 }
prices:
  - { model: gpt-4o, input: 2.5, output: 10 }
groups:
  - { name: vip, ratio: 0.8 }
models:
  - { model: gpt-4o, context_window: 128000 }
virtual_models:
  - { name: smart, targets: [{ model: gpt-4o }, { model: claude-a }] }
guardrails:
  - { name: no-passwords, kind: regex, pattern: "password\\\\s*=" }
settings:
  retry_times: 4
`;

function config(text: string): ConfigFile {
  const reading = parseConfigText(text, { OPENAI_KEY: 'sk-from-environment' });
  if (!reading.ok) throw new Error(reading.errors.join('\n'));
  return reading.config;
}

describe.each(storeVariants())('applying a configuration file on $name', (variant) => {
  let store: Store;
  let repositories: Repositories;
  beforeEach(async () => {
    store = await variant.open();
    repositories = createRepositories(store);
  });
  afterEach(async () => store.close());

  test('creates what the file declares, marks it, and a second apply writes nothing', async () => {
    const first = await applyConfigFile(store, FILE, config(BASE));
    expect(first.changes.filter((change) => change.action === 'create')).toHaveLength(7);
    expect(first.changes).toContainEqual({
      kind: 'settings',
      key: 'retry_times',
      action: 'change',
      members: [{ member: 'retry_times', before: null, after: 4 }],
    });
    expect(first.topics.sort()).toEqual(['channels', 'groups', 'guardrails', 'models', 'prices', 'settings']);
    const channels = await repositories.channels.all();
    expect(channels.find((channel) => channel.name === 'openai')).toMatchObject({
      keys: ['sk-from-environment'],
      baseUrl: null,
      status: 'enabled',
    });
    const { managedEntities } = repositories;
    expect(await managedEntities.keysOf('channels')).toEqual(new Set(['openai', 'claude']));
    expect(await managedEntities.keysOf('settings')).toEqual(new Set(['retry_times']));
    expect(await managedEntities.configFile()).toBe(FILE);
    expect(await repositories.settings.get('retry_times')).toBe('4');

    const second = await applyConfigFile(store, FILE, config(BASE));
    expect(second).toEqual({ changes: [], topics: [] });
    expect((await repositories.channels.all()).map((channel) => channel.id).sort()).toEqual(
      channels.map((channel) => channel.id).sort(),
    );
  });

  test('a change is applied in place, what the file drops is deleted, what the API made stays', async () => {
    await applyConfigFile(store, FILE, config(BASE));
    const claude = (await repositories.channels.all()).find((channel) => channel.name === 'claude')!;
    await repositories.prices.put({
      model: 'api-model',
      input: 1,
      output: 1,
      cachedInput: null,
      cacheWrite: null,
      perRequest: null,
      inputAudio: null,
      outputAudio: null,
      perMinute: null,
      perMillionCharacters: null,
    });
    const edited = config(
      BASE.replace('priority: 2', 'priority: 5').replace(
        '  - { name: openai, type: openai, keys: ["${OPENAI_KEY}"], models: [gpt-4o] }\n',
        '',
      ),
    );
    const { changes } = await applyConfigFile(store, FILE, edited);
    expect(changes).toEqual(
      expect.arrayContaining([
        {
          kind: 'channels',
          key: 'claude',
          action: 'change',
          members: [{ member: 'priority', before: 2, after: 5 }],
        },
        { kind: 'channels', key: 'openai', action: 'delete' },
      ]),
    );
    expect(changes).toHaveLength(2);
    expect(await repositories.channels.all()).toEqual([
      expect.objectContaining({ id: claude.id, priority: 5 }),
    ]);
    expect(await repositories.prices.find('api-model')).toBeDefined();

    const pruned = await applyConfigFile(store, FILE, { ...edited, prune: true });
    expect(pruned.changes).toEqual([{ kind: 'prices', key: 'api-model', action: 'delete' }]);
  });

  test('a channel health took out of service is not enabled again by an unchanged file', async () => {
    await applyConfigFile(store, FILE, config(BASE));
    const openai = (await repositories.channels.all()).find((channel) => channel.name === 'openai')!;
    await repositories.channels.update(openai.id, { status: 'auto_disabled' });
    expect((await applyConfigFile(store, FILE, config(BASE))).changes).toEqual([]);
    expect((await repositories.channels.find(openai.id))?.status).toBe('auto_disabled');
  });

  test('an entity the API made is taken over by a file that declares it; a setting it drops is the API’s again', async () => {
    await repositories.groups.put({ name: 'vip', ratio: 0.8 });
    const { changes } = await applyConfigFile(store, FILE, config(BASE));
    expect(changes.filter((change) => change.kind === 'groups')).toEqual([
      { kind: 'groups', key: 'vip', action: 'manage' },
    ]);
    expect(await repositories.managedEntities.isManaged('groups', 'vip')).toBe(true);

    const dropped = await applyConfigFile(
      store,
      FILE,
      config(BASE.replace('settings:\n  retry_times: 4\n', 'settings: {}\n')),
    );
    expect(dropped.changes).toEqual([{ kind: 'settings', key: 'retry_times', action: 'release' }]);
    expect(await repositories.managedEntities.isManaged('settings', 'retry_times')).toBe(false);
    expect(await repositories.settings.get('retry_times')).toBe('4');
  });

  test('a plan is what apply would do, member by member with keys masked, and writes nothing', async () => {
    await applyConfigFile(store, FILE, config(BASE));
    const before = await repositories.channels.all();
    const edited = config(
      BASE.replace('priority: 2', 'priority: 7').replace('${OPENAI_KEY}', 'sk-a-new-key-of-some-length'),
    );
    const plan = await applyConfigFile(store, FILE, edited, { planOnly: true });
    expect(plan.changes).toEqual([
      {
        kind: 'channels',
        key: 'openai',
        action: 'change',
        members: [{ member: 'keys', before: ['sk-f...ment'], after: ['sk-a...ngth'] }],
      },
      {
        kind: 'channels',
        key: 'claude',
        action: 'change',
        members: [{ member: 'priority', before: 2, after: 7 }],
      },
    ]);
    expect(await repositories.channels.all()).toEqual(before);
    expect((await applyConfigFile(store, FILE, edited)).changes).toEqual(plan.changes);
  });

  test('the Stripe secrets a file sets are masked in what it reports', async () => {
    const withStripe = config(
      BASE.replace(
        'settings:\n  retry_times: 4\n',
        'settings:\n  retry_times: 4\n  stripe_secret_key: sk_test_fromthefile000000\n  stripe_webhook_secret: whsec_fromthefile000000\n',
      ),
    );
    const { changes } = await applyConfigFile(store, FILE, withStripe);
    const members = changes
      .filter((change) => change.kind === 'settings')
      .flatMap((change) => change.members ?? []);
    expect(members).toEqual(
      expect.arrayContaining([
        { member: 'stripe_secret_key', before: null, after: 'sk_t...0000' },
        { member: 'stripe_webhook_secret', before: null, after: 'whse...0000' },
      ]),
    );
    expect(JSON.stringify(changes)).not.toContain('fromthefile');
    expect(await repositories.settings.get('stripe_secret_key')).toBe('"sk_test_fromthefile000000"');
  });

  // Stores of the SQLite variant are each in memory: only PostgreSQL can be shared by several.
  test.skipIf(variant.name !== 'postgres')(
    'instances applying one file at once agree: each entity once',
    async () => {
      const databaseUrl = process.env.DATABASE_URL!;
      const schema = uniqueSchemaName();
      const instances = [0, 1, 2].map(() =>
        openStore({ dataDir: ':memory:', databaseUrl, postgresSchema: schema }),
      );
      try {
        await migrateToLatest(instances[0]!);
        const results = await Promise.all(instances.map((each) => applyConfigFile(each, FILE, config(BASE))));
        const created = results
          .flatMap((result) => result.changes)
          .filter((change) => change.action === 'create');
        expect(created).toHaveLength(7);
        expect(await createRepositories(instances[0]!).channels.all()).toHaveLength(2);
      } finally {
        for (const instance of instances) await instance.close();
        await dropSchema(databaseUrl, schema);
      }
    },
  );
});
