import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ensureGatewayBuilt, repositoryRoot } from '../helpers/built-gateway.js';
import { dropSchema, uniqueSchemaName } from '../helpers/test-stores.js';

let dataDir: string;
beforeAll(async () => {
  await ensureGatewayBuilt();
  dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-packages-'));
}, 120_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The packages a gateway has loaded by the time it is ready. */
async function packagesLoadedAtStart(env: Record<string, string>): Promise<Set<string>> {
  const child = spawn(
    process.execPath,
    ['--import', path.join(repositoryRoot, 'test/helpers/report-loaded-packages.mjs'), 'dist/main.js'],
    {
      cwd: repositoryRoot,
      env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', GATEWAY_DATA_DIR: dataDir, ...env },
    },
  );
  const packages = new Set<string>();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const match of stderr.matchAll(/^loaded .*?node_modules\/((?:@[^/]+\/)?[^/]+)\//gm))
      packages.add(match[1]!);
    stderr = stderr.slice(stderr.lastIndexOf('\n') + 1);
  });
  await new Promise<void>((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('gateway ready on')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`gateway exited with ${code}: ${stdout}`)));
  });
  child.kill('SIGKILL');
  return packages;
}

const optionalPackages = [
  'pg',
  'ioredis',
  '@smithy/signature-v4',
  '@smithy/eventstream-codec',
  '@opentelemetry/sdk-trace-base',
  'gpt-tokenizer',
  'music-metadata',
  'stripe',
];

test('a gateway on SQLite, without Redis or traces, does not load the packages only those need', async () => {
  const packages = await packagesLoadedAtStart({});
  // The probe sees what is loaded: the gateway's own dependencies are there.
  expect(packages).toContain('fastify');
  expect(packages).toContain('better-sqlite3');
  for (const name of optionalPackages) expect(packages, name).not.toContain(name);
}, 60_000);

test.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)(
  'PostgreSQL, Redis and traces load what they need, and nothing more',
  async () => {
    const schema = uniqueSchemaName();
    const packages = await packagesLoadedAtStart({
      DATABASE_URL: process.env.DATABASE_URL!,
      DATABASE_SCHEMA: schema,
      REDIS_URL: process.env.REDIS_URL!,
      // Nothing listens there; spans are only queued until the gateway is killed.
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
    });
    for (const name of ['pg', 'ioredis', '@opentelemetry/sdk-trace-base'])
      expect(packages, name).toContain(name);
    for (const name of ['@smithy/signature-v4', 'gpt-tokenizer']) expect(packages, name).not.toContain(name);
    await dropSchema(process.env.DATABASE_URL!, schema);
  },
  60_000,
);
