import type { ChangeFeed } from '../events/change-feed.js';
import type { KeyValueRepository } from '../store/key-value-repository.js';
import { readJsonColumn } from '../store/json-column.js';
import { defaultSettings, settingNames, type Settings } from './settings-schema.js';

export type SettingsListener = (settings: Readonly<Settings>) => void;

/**
 * Settings as the next request sees them: defaults, overridden by `GATEWAY_*` variables,
 * overridden by values stored through the management API. Reloaded whenever the feed says so.
 */
export class LiveSettings {
  private current: Settings;
  private readonly listeners = new Set<SettingsListener>();

  private constructor(
    private readonly repository: KeyValueRepository,
    private readonly fromEnvironment: Partial<Settings>,
  ) {
    this.current = { ...defaultSettings, ...fromEnvironment };
  }

  static async load(options: {
    repository: KeyValueRepository;
    fromEnvironment: Partial<Settings>;
    changes: ChangeFeed;
  }): Promise<LiveSettings> {
    const settings = new LiveSettings(options.repository, options.fromEnvironment);
    await settings.reload();
    options.changes.subscribe((topic) => {
      if (topic === 'settings') return settings.reload();
    });
    return settings;
  }

  get(): Readonly<Settings> {
    return this.current;
  }

  /**
   * Calls `listener` with the settings after each change applied in this process (`update`, or a
   * `reload` on the feed's word), for what reads a setting once rather than per request, such as a
   * server timeout. Returns the function that stops the calls.
   */
  onChange(listener: SettingsListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stores the given values and applies them at once in this process. */
  async update(changes: Partial<Settings>): Promise<Settings> {
    for (const [name, value] of Object.entries(changes)) {
      await this.repository.put(name, JSON.stringify(value));
    }
    this.current = { ...this.current, ...changes };
    this.notify();
    return this.current;
  }

  async reload(): Promise<void> {
    const stored = await this.repository.all();
    const next: Record<string, unknown> = { ...defaultSettings, ...this.fromEnvironment };
    for (const name of settingNames) {
      const value = stored.get(name);
      if (value !== undefined) next[name] = readJsonColumn(value, `settings.${name}`);
    }
    this.current = next as Settings;
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener(this.current);
  }
}
