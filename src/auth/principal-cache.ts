import type { ChangeFeed } from '../events/change-feed.js';
import type { KeysRepository } from '../store/keys-repository.js';
import type { UsersRepository } from '../store/users-repository.js';
import { IpAllowList } from './ip-allow-list.js';
import type { KeyEntry } from './principal.js';

const DEFAULT_MAX_ENTRIES = 50_000;

/**
 * Keys and their owners by key hash, so authentication reads no database on a warm path.
 * Unknown hashes are cached too (as null) so a flood of wrong keys cannot reach the database.
 * Any change to keys or users empties the cache; loads that were in flight do not refill it.
 */
export class PrincipalCache {
  private entries = new Map<string, Promise<KeyEntry | null>>();
  /** The entries whose load settled, readable without a promise: the warm path's. */
  private known = new Map<string, KeyEntry | null>();

  constructor(
    private readonly repositories: { keys: KeysRepository; users: UsersRepository },
    changes: ChangeFeed,
    private readonly maxEntries = DEFAULT_MAX_ENTRIES,
  ) {
    changes.subscribe((topic) => {
      if (topic === 'keys' || topic === 'users') this.clear();
    });
  }

  lookup(keyHash: string): Promise<KeyEntry | null> {
    const cached = this.entries.get(keyHash);
    if (cached) return cached;
    const loading = this.load(keyHash);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) {
        this.entries.delete(oldest);
        this.known.delete(oldest);
      }
    }
    this.hold(keyHash, loading);
    return loading;
  }

  /** The entry when its load has settled: null for an unknown key, undefined when not (yet) held. */
  peek(keyHash: string): KeyEntry | null | undefined {
    return this.known.get(keyHash);
  }

  /** Replaces the cached copy of a key whose quota changed through billing. */
  refreshKey(keyHash: string, update: (entry: KeyEntry) => KeyEntry): void {
    const known = this.known.get(keyHash);
    if (known !== undefined) {
      const refreshed = known && update(known);
      this.entries.set(keyHash, Promise.resolve(refreshed));
      this.known.set(keyHash, refreshed);
      return;
    }
    const cached = this.entries.get(keyHash);
    if (cached)
      this.hold(
        keyHash,
        cached.then((entry) => entry && update(entry)),
      );
  }

  clear(): void {
    this.entries = new Map();
    this.known = new Map();
  }

  /**
   * Caches `loading` for the key; once it settles, and only while it is still the cached one (no
   * change emptied the cache meanwhile), its entry is known. A failed load is dropped.
   */
  private hold(keyHash: string, loading: Promise<KeyEntry | null>): void {
    this.entries.set(keyHash, loading);
    loading.then(
      (entry) => {
        if (this.entries.get(keyHash) === loading) this.known.set(keyHash, entry);
      },
      () => this.entries.get(keyHash) === loading && this.entries.delete(keyHash),
    );
  }

  private async load(keyHash: string): Promise<KeyEntry | null> {
    const key = await this.repositories.keys.findByHash(keyHash);
    if (!key) return null;
    const user = await this.repositories.users.find(key.userId);
    if (!user) return null;
    return {
      key,
      user,
      ipAllowList: key.ipAllowList ? new IpAllowList(key.ipAllowList) : null,
      modelLimits: key.modelLimits ? new Set(key.modelLimits) : null,
    };
  }
}
