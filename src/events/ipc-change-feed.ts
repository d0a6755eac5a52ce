import { LocalChangeFeed, type ChangeFeed, type ChangeListener, type ChangeTopic } from './change-feed.js';
import type { IpcLink } from '../cluster/ipc-link.js';

/** Long enough for every other worker to reload a cache from the database. */
const RELAY_TIMEOUT_MS = 5_000;

/** The feed a worker's own listeners hang on: local, or Redis when it also reaches other machines. */
export interface BaseChangeFeed extends ChangeFeed {
  /** Runs this process's listeners only. */
  deliver(topic: ChangeTopic): Promise<void>;
}

/**
 * Change notices shared by the workers of one machine (DESIGN section 8). A change made here
 * reaches this worker's caches first (and, with Redis as the base feed, other machines); then the
 * primary relays it to every other worker and answers once they have all reloaded, so `publish`
 * resolves when the whole machine sees the change: whichever worker takes the next request answers
 * with it. With Redis, the other workers hear of it both ways and reload twice; changes are rare.
 */
export class IpcChangeFeed implements ChangeFeed {
  private readonly base: BaseChangeFeed;
  private readonly onError: (error: unknown, context: string) => void;

  constructor(
    private readonly link: IpcLink,
    options: {
      base?: BaseChangeFeed;
      onError?: (error: unknown, context: string) => void;
    } = {},
  ) {
    this.base = options.base ?? new LocalChangeFeed();
    this.onError = options.onError ?? (() => undefined);
    link.handle('change', async ({ topic }) => {
      await this.base.deliver(topic);
      return true;
    });
  }

  async publish(topic: ChangeTopic): Promise<void> {
    await this.base.publish(topic);
    // The change is stored whatever happens here; a worker the primary could not reach reloads
    // on the next change, and a new worker loads everything at start.
    await this.link
      .call('change', { topic }, RELAY_TIMEOUT_MS)
      .catch((error: unknown) => this.onError(error, `relay of ${topic} to the other workers`));
  }

  subscribe(listener: ChangeListener): void {
    this.base.subscribe(listener);
  }

  async close(): Promise<void> {
    await this.base.close();
  }
}
