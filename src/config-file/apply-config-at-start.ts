import type { ChangeTopic } from '../events/change-feed.js';
import type { Logger } from '../observability/logger.js';
import type { Store } from '../store/database.js';
import { applyConfigFile, declaredTopics } from './apply-config-file.js';
import { readConfigFile } from './read-config-file.js';

type Applied = { ok: true; topics: ChangeTopic[]; declared: ChangeTopic[] } | { ok: false; errors: string[] };

/** Reads, checks and applies the file; logs every error of an invalid one, or what changed. */
async function readAndApply(store: Store, file: string, logger: Logger): Promise<Applied> {
  const reading = await readConfigFile(file, process.env);
  if (!reading.ok) {
    for (const error of reading.errors) logger.error({ file }, `configuration file: ${error}`);
    return { ok: false, errors: reading.errors };
  }
  const { changes, topics } = await applyConfigFile(store, file, reading.config);
  const count = (action: string) => changes.filter((change) => change.action === action).length;
  logger.info(
    { file, created: count('create'), changed: count('change'), deleted: count('delete') },
    'configuration file applied',
  );
  return { ok: true, topics, declared: declaredTopics(reading.config) };
}

/**
 * `GATEWAY_CONFIG_FILE` at start (admin-api section 13), before anything serves: read, checked and
 * applied. An invalid file stops the start with its first error, at its place in the file (every
 * error is logged). Resolves to the change topics that other instances' caches must hear.
 */
export async function applyConfigAtStart(store: Store, file: string, logger: Logger): Promise<ChangeTopic[]> {
  const applied = await readAndApply(store, file, logger);
  if (applied.ok) return applied.topics;
  const more = applied.errors.length > 1 ? ` (and ${applied.errors.length - 1} more)` : '';
  throw new Error(`configuration file ${file}: ${applied.errors[0]}${more}`);
}

/**
 * The file again, on `SIGHUP`, while serving: applied, and the topic of every kind it declares
 * published, so that each cache of those kinds reloads, whether this apply changed them or one
 * made elsewhere did (`model-gateway config apply` without Redis). An invalid file, or an apply
 * that fails, leaves everything as it was and is logged; this never throws.
 */
export async function reapplyConfigFile(
  store: Store,
  file: string | undefined,
  logger: Logger,
  publish: (topics: ChangeTopic[]) => Promise<void>,
): Promise<void> {
  if (!file) {
    logger.warn('SIGHUP: no configuration file to read (GATEWAY_CONFIG_FILE is not set)');
    return;
  }
  try {
    const applied = await readAndApply(store, file, logger);
    if (!applied.ok) {
      logger.error(
        { file, errors: applied.errors.length },
        'configuration file not applied: nothing changed',
      );
      return;
    }
    await publish(applied.declared);
  } catch (error) {
    logger.error({ err: error, file }, 'configuration file not applied: nothing changed');
  }
}
