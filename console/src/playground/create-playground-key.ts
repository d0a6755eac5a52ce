import { createKey, deleteKey, listKeys } from '../api/keys-api';
import { PLAYGROUND_KEY_LIFETIME_S, PLAYGROUND_KEY_NAME, type PlaygroundKey } from './playground-key';

/**
 * A new key of the user's own (`POST /api/me/keys`) for the playground: no limits of its own, so
 * the user's balance, group and budgets decide as for any of their requests; it expires within
 * hours. Playground keys that already expired are deleted first, so they do not pile up in the
 * user's list.
 */
export async function createPlaygroundKey(options: { userId: number; now: number }): Promise<PlaygroundKey> {
  const expired = (await listKeys('own')).filter(
    (key) => key.name === PLAYGROUND_KEY_NAME && key.status === 'expired',
  );
  for (const key of expired) await deleteKey('own', key.id);
  const expiresAt = Math.floor(options.now) + PLAYGROUND_KEY_LIFETIME_S;
  const created = await createKey('own', {
    name: PLAYGROUND_KEY_NAME,
    status: 'enabled',
    expires_at: expiresAt,
    unlimited_quota: true,
    quota: 0,
    model_limits: null,
    ip_allow_list: null,
    group: null,
    rpm: null,
    tpm: null,
    budgets: [],
    max_concurrency: null,
  });
  return { id: created.id, key: created.key, userId: options.userId, expiresAt };
}
