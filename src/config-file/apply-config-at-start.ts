import type { ChangeTopic } from '../events/change-feed.js';
import type { Logger } from '../observability/logger.js';
import type { Store } from '../store/database.js';
import { applyConfigFile } from './apply-config-file.js';
import { readConfigFile } from './read-config-file.js';

/**
 * `GATEWAY_CONFIG_FILE` at start (admin-api section 13), before anything serves: read, checked and
 * applied. An invalid file stops the start with its first error, at its place in the file (every
 * error is logged). Resolves to the change topics that other instances' caches must hear.
 */
export async function applyConfigAtStart(store: Store, file: string, logger: Logger): Promise<ChangeTopic[]> {
  const reading = await readConfigFile(file, process.env);
  if (!reading.ok) {
    for (const error of reading.errors) logger.error({ file }, `configuration file: ${error}`);
    const more = reading.errors.length > 1 ? ` (and ${reading.errors.length - 1} more)` : '';
    throw new Error(`configuration file ${file}: ${reading.errors[0]}${more}`);
  }
  const { changes, topics } = await applyConfigFile(store, file, reading.config);
  const count = (action: string) => changes.filter((change) => change.action === action).length;
  logger.info(
    { file, created: count('create'), changed: count('change'), deleted: count('delete') },
    'configuration file applied',
  );
  return topics;
}
