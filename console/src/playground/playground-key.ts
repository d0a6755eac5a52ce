import { parseJson } from '../api/parse-json';

/** The key the playground sends its requests with: made for it, its secret kept in this tab only. */
export interface PlaygroundKey {
  id: number;
  /** The full key, as the creating call answered it (the gateway keeps only a hash). */
  key: string;
  userId: number;
  expiresAt: number;
}

/** The name the playground's keys carry in the user's key list. */
export const PLAYGROUND_KEY_NAME = 'Playground (console)';

/** Short-lived: a leaked tab's key stops working within the day. */
export const PLAYGROUND_KEY_LIFETIME_S = 8 * 3600;

/** A key this close to its expiry is replaced rather than used for one more answer. */
const EXPIRY_MARGIN_S = 10 * 60;

const STORAGE_NAME = 'gw_playground_key';

/**
 * The tab's playground key when it belongs to this user and is not about to expire. Session
 * storage, never local storage: the secret ends with the tab.
 */
export function readStoredPlaygroundKey(options: {
  storage: Storage;
  userId: number;
  now: number;
}): PlaygroundKey | undefined {
  const text = options.storage.getItem(STORAGE_NAME);
  if (text === null) return undefined;
  const parsed = parseJson(text);
  if (!parsed.ok || !isPlaygroundKey(parsed.value)) return undefined;
  const stored = parsed.value;
  if (stored.userId !== options.userId || stored.expiresAt - EXPIRY_MARGIN_S <= options.now) return undefined;
  return stored;
}

export function storePlaygroundKey(storage: Storage, key: PlaygroundKey): void {
  storage.setItem(STORAGE_NAME, JSON.stringify(key));
}

export function forgetPlaygroundKey(storage: Storage): void {
  storage.removeItem(STORAGE_NAME);
}

function isPlaygroundKey(value: unknown): value is PlaygroundKey {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record['id'] === 'number' &&
    typeof record['key'] === 'string' &&
    typeof record['userId'] === 'number' &&
    typeof record['expiresAt'] === 'number'
  );
}
