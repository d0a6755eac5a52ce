import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openStore, type Store } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { createRepositories } from '../../src/store/repositories.js';
import {
  ensureGatewayBuilt,
  repositoryRoot,
  startBuiltGateway,
  stopBuiltGateway,
} from '../helpers/built-gateway.js';
import { dropSchema, uniqueSchemaName } from '../helpers/test-stores.js';

/**
 * The `model-gateway` command (admin-api section 13) as a process: `--help`, `config validate`
 * reporting every error with its place, `plan` exit codes and its diff, `apply`, and `export`,
 * whose file `apply` reproduces exactly on an empty database.
 */
const folder = mkdtempSync(path.join(tmpdir(), 'gateway-cli-'));
const databaseUrl = process.env.DATABASE_URL;
const packageJson = JSON.parse(readFileSync(path.join(repositoryRoot, 'package.json'), 'utf8'));
const binary = path.join(repositoryRoot, packageJson.bin['model-gateway']);

beforeAll(() => ensureGatewayBuilt(), 120_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function modelGateway(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [binary, ...args],
      { cwd: folder, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 30_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function fileWith(name: string, text: string): string {
  const file = path.join(folder, name);
  writeFileSync(file, text);
  return file;
}

const sqliteAt = (name: string) => ({ GATEWAY_DATA_DIR: path.join(folder, name) });

test('alone, it starts the server as npm start does, and stops on SIGTERM', async () => {
  const server = await startBuiltGateway(
    { ...sqliteAt('serve-data'), GATEWAY_ADMIN_TOKEN: 'cli-admin-token' },
    [],
    packageJson.bin['model-gateway'],
  );
  expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
  expect(await stopBuiltGateway(server)).toBe(0);
});

test('--help lists the commands; an unknown one is refused with the usage', async () => {
  const help = await modelGateway(['--help']);
  expect(help.code).toBe(0);
  for (const command of ['config validate', 'config plan', 'config apply', 'config export'])
    expect(help.stdout).toContain(`model-gateway ${command}`);
  const unknown = await modelGateway(['serve-please']);
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain('unknown command "serve-please"');
  expect((await modelGateway(['config', 'plan'])).code).toBe(1);
});

test('config validate: a valid file, and every error of an invalid one at its place', async () => {
  const valid = fileWith('valid.yaml', 'prices:\n  - { model: m, input: 1, output: 2 }\n');
  expect(await modelGateway(['config', 'validate', valid])).toMatchObject({
    code: 0,
    stdout: `${valid}: valid\n`,
  });
  const invalid = fileWith(
    'invalid.yaml',
    `channels:
  - { name: a, type: openai, keys: [k], models: [m] }
  - { name: b, type: opena, keys: [k], models: [m] }
prices:
  - { model: m, input: -1, output: 2 }
settings:
  retry_times: "\${MISSING_VARIABLE}"
`,
  );
  const result = await modelGateway(['config', 'validate', invalid]);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('channels[1].type: must be one of');
  expect(result.stderr).toContain('prices[0].input:');
  expect(result.stderr).toContain(
    'settings.retry_times: the environment variable MISSING_VARIABLE is not set',
  );
  expect(result.stdout).toBe('');
});

test('config plan exits 2 with a readable diff while apply has work, 0 once it has none', async () => {
  const env = sqliteAt('plan-data');
  const write = (priority: number, priced: string[]) =>
    fileWith(
      'plan.yaml',
      `channels:
  - { name: primary, type: openai, keys: ["\${PRIMARY_KEY}"], models: [m1], priority: ${priority} }
prices:
${priced.map((model) => `  - { model: ${model}, input: 1, output: 2 }\n`).join('')}`,
    );
  const withKey = { ...env, PRIMARY_KEY: 'sk-primary-key-0123456789' };
  let file = write(1, ['m1', 'm2']);
  const first = await modelGateway(['config', 'plan', file], withKey);
  expect(first.code).toBe(2);
  expect(first.stdout).toBe(
    'prices\n  + m1\n  + m2\nchannels\n  + primary\n\n3 to create, 0 to change, 0 to delete.\n',
  );
  // A plan writes nothing: the same plan again.
  expect((await modelGateway(['config', 'plan', file], withKey)).stdout).toBe(first.stdout);
  const applied = await modelGateway(['config', 'apply', file], withKey);
  expect(applied).toMatchObject({ code: 0, stdout: expect.stringContaining('3 to create') });
  expect(await modelGateway(['config', 'plan', file], withKey)).toMatchObject({
    code: 0,
    stdout: 'No changes: the database already is what the file declares.\n',
  });

  file = write(3, ['m1']);
  const changed = await modelGateway(['config', 'plan', file], {
    ...withKey,
    PRIMARY_KEY: 'sk-rotated-key-9876543210',
  });
  expect(changed.code).toBe(2);
  expect(changed.stdout).toBe(
    [
      'prices',
      '  - m2',
      'channels',
      '  ~ primary',
      '      keys: ["sk-p...6789"] -> ["sk-r...3210"]',
      '      priority: 1 -> 3',
      '',
      '0 to create, 1 to change, 1 to delete.',
      '',
    ].join('\n'),
  );
  expect(changed.stdout).not.toContain('sk-rotated-key');
});

/** Everything an export covers, as the repositories read it, without what the database assigns. */
async function setupOf(store: Store) {
  const repositories = createRepositories(store);
  const channels = (await repositories.channels.all())
    .sort((a, b) => a.id - b.id)
    .map(({ id: _id, createdAt: _createdAt, ...channel }) => channel);
  const guardrails = (await repositories.guardrails.all()).map(
    ({ id: _id, createdAt: _createdAt, ...guardrail }) => guardrail,
  );
  const settings = await store.db.selectFrom('settings').select(['name', 'value']).orderBy('name').execute();
  return {
    channels,
    prices: await repositories.prices.all(),
    groups: await repositories.groups.all(),
    models: await repositories.modelMetadata.all(),
    virtualModels: await repositories.virtualModels.all(),
    guardrails,
    settings: settings.map((row) => [row.name, JSON.parse(row.value)]),
  };
}

/** A setup made through the repositories, as the API and console make it, with the awkward cases. */
async function populate(store: Store): Promise<void> {
  const repositories = createRepositories(store);
  await repositories.channels.create({
    name: 'openai main',
    type: 'openai',
    baseUrl: 'https://api.example.com/v1',
    keys: ['sk-one-0000000000000000', 'sk-two-1111111111111111'],
    models: ['gpt-4o', 'gpt-4o-mini'],
    modelMapping: { 'gpt-4o': 'gpt-4o-2024-08-06' },
    groups: ['default', 'vip'],
    priority: 2,
    weight: 3,
    endpoints: ['openai', 'openai-response'],
    status: 'disabled',
    config: {},
  });
  await repositories.channels.create({
    name: 'claude',
    type: 'anthropic',
    baseUrl: null,
    keys: ['sk-ant-$${NOT_A_REFERENCE}'],
    models: ['claude-a'],
    modelMapping: {},
    groups: ['default'],
    priority: 0,
    weight: 1,
    endpoints: null,
    status: 'enabled',
    config: {},
  });
  await repositories.prices.put({
    model: 'gpt-4o',
    input: 2_500_000_000,
    output: 10_000_000_000,
    cachedInput: 1_250_000_000,
    cacheWrite: null,
    perRequest: null,
    inputAudio: null,
    outputAudio: null,
    perMinute: null,
    perMillionCharacters: null,
  });
  await repositories.prices.put({
    model: 'claude-a',
    input: 3_000_000_000,
    output: 15_000_000_000,
    cachedInput: null,
    cacheWrite: 3_750_000_000,
    perRequest: 1_000_000,
    inputAudio: null,
    outputAudio: null,
    perMinute: null,
    perMillionCharacters: null,
  });
  await repositories.groups.put({
    name: 'vip',
    ratio: 0.8,
    budgets: [
      {
        period: 'day',
        hours: null,
        usd: 5_000_000_000,
        tokens: null,
        requests: 100,
        models: null,
        alertAt: [0.8],
      },
    ],
    maxConcurrency: 4,
    logBodies: true,
  });
  await repositories.modelMetadata.put({
    model: 'gpt-4o',
    contextWindow: 128_000,
    maxOutputTokens: null,
    capabilities: ['vision', 'tools'],
  });
  await repositories.virtualModels.create({
    name: 'smart',
    targets: [
      { model: 'gpt-4o', priority: 1, weight: 1 },
      { model: 'claude-a', priority: 0, weight: 2 },
    ],
    strategy: 'priority',
    fallbackOn: ['rate_limit'],
    sticky: false,
  });
  await repositories.guardrails.create({
    name: 'no passwords',
    kind: 'regex',
    pattern: 'password\\s*=\\s*\\S+$$|\\$\\{',
    url: null,
    action: 'block',
    fail: 'closed',
    timeoutMs: 1000,
    groups: ['vip'],
  });
  await repositories.settings.put('retry_times', '4');
  await repositories.settings.put('webhook_secret', JSON.stringify('whsec-top-secret'));
  await repositories.settings.put('stripe_secret_key', JSON.stringify('sk_test_exported0000000000'));
  await repositories.settings.put('stripe_webhook_secret', JSON.stringify('whsec_exported0000000000'));
  await repositories.settings.put('webhook_url', 'null');
}

describe('config export', () => {
  const source = sqliteAt('export-source');
  const target: Record<string, string> = databaseUrl
    ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: uniqueSchemaName() }
    : sqliteAt('export-target');
  afterAll(async () => {
    if (target.DATABASE_SCHEMA) await dropSchema(databaseUrl!, target.DATABASE_SCHEMA);
  });

  test(`writes a file that apply reproduces exactly on an empty database (${databaseUrl ? 'PostgreSQL' : 'SQLite'})`, async () => {
    const sourceStore = openStore({ dataDir: source.GATEWAY_DATA_DIR });
    await migrateToLatest(sourceStore);
    await populate(sourceStore);
    const expected = await setupOf(sourceStore);
    await sourceStore.close();

    const file = path.join(folder, 'exported.yaml');
    const exported = await modelGateway(['config', 'export', file], source);
    expect(exported).toMatchObject({ code: 0, stderr: '' });
    const text = readFileSync(file, 'utf8');
    for (const secret of ['sk-one-', 'sk-two-', 'sk-ant-', 'whsec-', 'sk_test_exported', 'whsec_exported'])
      expect(text).not.toContain(secret);
    for (const variable of [
      'CHANNEL_OPENAI_MAIN_KEY_1',
      'CHANNEL_OPENAI_MAIN_KEY_2',
      'CHANNEL_CLAUDE_KEY',
      'WEBHOOK_SECRET',
      'STRIPE_SECRET_KEY',
      'STRIPE_WEBHOOK_SECRET',
    ])
      expect(text).toMatch(new RegExp(`^#   ${variable}: `, 'm'));
    expect((await modelGateway(['config', 'export'], source)).stdout).toContain('channels:');

    const secrets = {
      CHANNEL_OPENAI_MAIN_KEY_1: 'sk-one-0000000000000000',
      CHANNEL_OPENAI_MAIN_KEY_2: 'sk-two-1111111111111111',
      CHANNEL_CLAUDE_KEY: 'sk-ant-$${NOT_A_REFERENCE}',
      WEBHOOK_SECRET: 'whsec-top-secret',
      STRIPE_SECRET_KEY: 'sk_test_exported0000000000',
      STRIPE_WEBHOOK_SECRET: 'whsec_exported0000000000',
    };
    const missing = await modelGateway(['config', 'apply', file], target);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('the environment variable CHANNEL_OPENAI_MAIN_KEY_1 is not set');
    expect(await modelGateway(['config', 'apply', file], { ...target, ...secrets })).toMatchObject({
      code: 0,
      stderr: '',
    });

    const targetStore = openStore({
      dataDir: target.GATEWAY_DATA_DIR ?? ':memory:',
      databaseUrl: target.DATABASE_URL,
      postgresSchema: target.DATABASE_SCHEMA,
    });
    try {
      expect(await setupOf(targetStore)).toEqual(expected);
    } finally {
      await targetStore.close();
    }
    expect((await modelGateway(['config', 'plan', file], { ...target, ...secrets })).code).toBe(0);
  });
});
