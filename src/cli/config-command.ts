import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { applyConfigFile } from '../config-file/apply-config-file.js';
import { describeChanges } from '../config-file/describe-changes.js';
import { exportConfigFile } from '../config-file/export-config-file.js';
import { readConfigFile } from '../config-file/read-config-file.js';
import { readEnvironment } from '../config/environment.js';
import type { ChangeTopic } from '../events/change-feed.js';
import { RedisChangeFeed } from '../events/redis-change-feed.js';
import { openStore, type Store } from '../store/database.js';
import { migrateToLatest } from '../store/migrate.js';
import { createRepositories } from '../store/repositories.js';
import { CONFIG_USAGE } from './usage.js';

export interface Output {
  out(text: string): void;
  err(text: string): void;
}

/** `model-gateway config ...` (admin-api section 13). Resolves to the exit code. */
export async function runConfigCommand(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  output: Output,
): Promise<number> {
  const [action, file, ...extra] = args;
  const needsFile = action === 'validate' || action === 'plan' || action === 'apply';
  if (
    !['validate', 'plan', 'apply', 'export'].includes(action ?? '') ||
    extra.length > 0 ||
    (needsFile && !file)
  ) {
    output.err(CONFIG_USAGE);
    return 1;
  }
  if (action === 'export') return exportTo(file, env, output);

  const reading = await readConfigFile(file!, env);
  if (!reading.ok) {
    for (const error of reading.errors) output.err(`${file}: ${error}\n`);
    output.err(`${reading.errors.length} error${reading.errors.length === 1 ? '' : 's'}: nothing applied\n`);
    return 1;
  }
  if (action === 'validate') {
    output.out(`${file}: valid\n`);
    return 0;
  }
  return withStore(env, async (store) => {
    const planOnly = action === 'plan';
    const { changes, topics } = await applyConfigFile(store, path.resolve(file!), reading.config, {
      planOnly,
    });
    output.out(describeChanges(changes));
    if (planOnly) return changes.length > 0 ? 2 : 0;
    await tellInstances(env.REDIS_URL, topics, output);
    return 0;
  });
}

async function exportTo(file: string | undefined, env: NodeJS.ProcessEnv, output: Output): Promise<number> {
  return withStore(env, async (store) => {
    const { text, variables } = await exportConfigFile(createRepositories(store), store.db);
    if (!file) {
      output.out(text);
      return 0;
    }
    await writeFile(file, text);
    output.out(`${file}: written\n`);
    if (variables.length > 0)
      output.out(`Set before applying it: ${variables.map((variable) => variable.name).join(', ')}\n`);
    return 0;
  });
}

async function withStore(env: NodeJS.ProcessEnv, run: (store: Store) => Promise<number>): Promise<number> {
  const environment = readEnvironment(env);
  const store = openStore({
    databaseUrl: environment.databaseUrl,
    dataDir: environment.dataDir,
    postgresSchema: environment.databaseSchema,
  });
  try {
    await migrateToLatest(store);
    return await run(store);
  } finally {
    await store.close();
  }
}

/**
 * With Redis, the running instances hear of the apply as of a change made through the API;
 * without it, they read the database again on `SIGHUP` or a restart.
 */
async function tellInstances(redisUrl: string | undefined, topics: ChangeTopic[], output: Output) {
  if (topics.length === 0) return;
  if (!redisUrl) {
    output.out('Running gateways see the changes after SIGHUP or a restart.\n');
    return;
  }
  const feed = await RedisChangeFeed.connect(redisUrl, (error) =>
    output.err(`Redis: ${(error as Error).message}\n`),
  );
  try {
    for (const topic of topics) await feed.publish(topic);
  } finally {
    await feed.close();
  }
}
