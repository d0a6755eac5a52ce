import type { ChangeTopic } from '../events/change-feed.js';
import { MemoryLoginThrottle, type LoginThrottle } from '../limits/login-throttle.js';
import { MemoryRateLimiter } from '../limits/memory-rate-limiter.js';
import type { Logger } from '../observability/logger.js';
import { gatherClusterMetrics } from './cluster-metrics.js';
import { IpcLink, type IpcPort } from './ipc-link.js';

/** How long the primary waits for one worker to reload after a change. */
const RELOAD_TIMEOUT_MS = 4_000;

interface Member {
  link: IpcLink;
  /** Its caches are loaded: changes reach it at once; before, they wait in `missed`. */
  ready: boolean;
  missed: Set<ChangeTopic>;
}

export interface PrimaryHubOptions {
  logger: Logger;
  /** The machine-wide counters; in memory by default. */
  limiter?: MemoryRateLimiter;
  loginThrottle?: LoginThrottle;
  /** A worker accepts connections. */
  onListening?: (workerId: number, address: string) => void;
}

/**
 * The primary's side of what the workers share without Redis: the rate counters and console
 * sign-in attempts of the whole machine, the relay of change notices (answered once every other
 * worker has reloaded) and of channel health, and the machine's metrics gathered from every
 * worker. A worker that is still starting gets the changes it missed when it joins, just before it
 * listens, so no worker ever serves from caches older than a change already answered.
 */
export class PrimaryHub {
  private readonly members = new Map<number, Member>();
  private readonly limiter: MemoryRateLimiter;
  private readonly logins: LoginThrottle;

  constructor(private readonly options: PrimaryHubOptions) {
    this.limiter = options.limiter ?? new MemoryRateLimiter();
    this.logins = options.loginThrottle ?? new MemoryLoginThrottle();
  }

  attach(workerId: number, port: IpcPort): void {
    const link = new IpcLink(port, (error, context) =>
      this.options.logger.debug({ err: error, workerId, context }, 'worker channel trouble'),
    );
    const member: Member = { link, ready: false, missed: new Set() };
    this.members.set(workerId, member);
    link.handle('admit', async ({ tokens, requests, leases }) => {
      for (const [keyId, count] of tokens) await this.limiter.recordTokens(keyId, count);
      const decisions = [];
      for (const { keyId, limits } of requests) decisions.push(await this.limiter.admit(keyId, limits));
      // Each worker may hold a lease of every key: together they lend out at most half the room.
      const spread = 2 * this.members.size;
      return {
        decisions,
        leases: leases.map(({ keyId, rpm, wanted }) => this.limiter.lease(keyId, rpm, wanted, spread)),
      };
    });
    link.handle('loginBegin', ({ subjects }) => this.logins.begin(subjects));
    link.handle('loginSucceed', async ({ ticket, clear }) => {
      await this.logins.succeed(ticket, clear);
      return true;
    });
    link.handle('change', async ({ topic }) => {
      await this.relayChange(workerId, topic);
      return true;
    });
    link.handle('join', async () => {
      member.ready = true;
      const missed = [...member.missed];
      member.missed.clear();
      await Promise.all(missed.map((topic) => this.tell(workerId, member, topic)));
      return true;
    });
    link.handle('metrics', () => this.gatherMetrics());
    link.onNotice('tokens', ({ counts }) => {
      for (const [keyId, tokens] of counts) void this.limiter.recordTokens(keyId, tokens);
    });
    link.onNotice('giveBack', ({ unused }) => {
      for (const [keyId, count, windowStart] of unused) this.limiter.giveBack(keyId, count, windowStart);
    });
    link.onNotice('health', ({ update }) => {
      for (const [id, other] of this.members) if (id !== workerId) other.link.notify('health', { update });
    });
    link.onNotice('listening', ({ address }) => this.options.onListening?.(workerId, address));
  }

  /** A change the primary made itself (the configuration file): every worker reloads, or will when it joins. */
  announce(topic: ChangeTopic): Promise<void> {
    return this.relayChange(undefined, topic);
  }

  /** The worker is gone: calls waiting on it fail, and changes no longer wait for it. */
  detach(workerId: number): void {
    this.members.get(workerId)?.link.close();
    this.members.delete(workerId);
  }

  async close(): Promise<void> {
    for (const workerId of [...this.members.keys()]) this.detach(workerId);
    await this.limiter.close();
    await this.logins.close();
  }

  /** Every ready worker's metrics, the asking worker's included, as one exposition. */
  private gatherMetrics(): Promise<string> {
    const ready = [...this.members].filter(([, member]) => member.ready);
    return gatherClusterMetrics(
      ready.map(([workerId, member]) => [workerId, member.link]),
      (workerId, error) =>
        this.options.logger.warn({ err: error, workerId }, 'a worker left out of the metrics: no answer'),
    );
  }

  private async relayChange(from: number | undefined, topic: ChangeTopic): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const [workerId, member] of this.members) {
      if (workerId === from) continue;
      if (member.ready) waits.push(this.tell(workerId, member, topic));
      else member.missed.add(topic);
    }
    await Promise.all(waits);
  }

  private async tell(workerId: number, member: Member, topic: ChangeTopic): Promise<void> {
    try {
      await member.link.call('change', { topic }, RELOAD_TIMEOUT_MS);
    } catch (error) {
      this.options.logger.warn({ err: error, workerId, topic }, 'a worker did not confirm a reload');
    }
  }
}
